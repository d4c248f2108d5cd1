/** A 32-hex stand-in for a hash from a number, as the queue's schema and a visitor record's id take it. */
export const hex = (n: number) => n.toString(16).padStart(32, '0');
