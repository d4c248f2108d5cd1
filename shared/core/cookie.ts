/** A cookie an answer sets (the visitor cookie of cookie mode), in the shape the Functions host takes. */
export interface AnswerCookie {
  name: string;
  value: string;
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  path?: string;
}
