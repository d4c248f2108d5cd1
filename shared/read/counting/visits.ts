import { isLoopbackNetwork } from '../../core/identity/network';
import type { VisitorDay } from '../../core/store/activity';

/** Every loopback row of a day is one machine. */
export const visitorDayKey = (row: VisitorDay): string => `${row.day}|${isLoopbackNetwork(row.network) ? 'loopback' : row.token}`;
