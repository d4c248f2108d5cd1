import { isLoopbackNetwork } from '../../core/identity/network';
import type { VisitorDay } from '../../core/store/activity';

/** Which visitor-day a row belongs to: its daily token on its day on any store, and every loopback row of a day as one machine. */
export const visitorDayKey = (row: VisitorDay): string => `${row.day}|${isLoopbackNetwork(row.network) ? 'loopback' : row.token}`;
