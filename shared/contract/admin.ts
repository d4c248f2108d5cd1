import { z } from 'zod';
import { count, instant, Subject, zoneFields } from './common';

export const SubjectRow = z
  .object({
    subject: Subject,
    scans: count(),
    unique: count(),
    repeat: count(),
    scanners: count(),
    self: count(),
    first_scan: instant().nullable(),
    last_scan: instant().nullable(),
  })
  .meta({ id: 'SubjectRow' });

export const SUBJECT_SORTS = ['subject', 'scans', 'unique', 'repeat', 'last_scan'] as const;

export const SubjectsPage = z
  .object({
    subjects: z.array(SubjectRow),
    sort: z.enum(SUBJECT_SORTS),
    order: z.enum(['asc', 'desc']),
    limit: z.int().min(1).max(200),
    continuation: z.string().nullable(),
    source: z.string(),
  })
  .meta({ id: 'SubjectsPage' });

export const OperatorMark = z
  .object({ token: z.string(), links: z.array(z.object({ site: z.string(), mark: z.string(), unmark: z.string() })) })
  .meta({ id: 'OperatorMark' });

export const SessionState = z
  .object({
    signed_in: z.boolean(),
    via: z.enum(['session', 'key']).optional(),
    expires_at: instant()
      .nullable()
      .optional()
      .meta({ description: 'When the session ends unless used again (null when the key was sent instead).' }),
    session_hours: z.int().min(1).optional(),
    ended: z.boolean().optional().meta({ description: 'Signed out because the session ran out (its cookie is removed).' }),
  })
  .meta({ id: 'SessionState' });

export type SubjectsPageAnswer = z.infer<typeof SubjectsPage>;
export type OperatorMarkAnswer = z.infer<typeof OperatorMark>;
export type SessionAnswer = z.infer<typeof SessionState>;

export const SubjectDay = z.object({ day: z.iso.date(), scans: count(), new: count() }).meta({ id: 'SubjectDay' });

export const SubjectFigures = z
  .object({
    subject: Subject,
    scans: count(),
    unique: count(),
    repeat: count(),
    scanners: count(),
    self: count(),
    first_scan: instant().nullable(),
    last_scan: instant().nullable(),
    days: z.int().min(1).max(366),
    by_day: z.array(SubjectDay),
    source: z.string(),
    ...zoneFields,
  })
  .meta({ id: 'SubjectFigures' });

export type SubjectFiguresAnswer = z.infer<typeof SubjectFigures>;
