import { addressOf, dashed, none, unreadable, type LineRead, type LineReader, type LogFormat } from './record';

/** The W3C fields a request is read from (IIS, Azure App Service); the others (cookies, user names, times taken) are not read. */
const NEEDED = ['date', 'time', 'c-ip', 'cs-method', 'cs-uri-stem'] as const;

/** IIS writes a space in a field as `+` (the agent, the referrer, cookies): the agent is read back with spaces. */
const spaced = (value: string | null) => (value === null ? null : value.replace(/\+/g, ' '));

/**
 * The W3C extended log format (IIS, Azure App Service's HTTP logs): each `#Fields:` line names the columns of the
 * lines after it; a line is its fields split by spaces, `-` for none; `date` and `time` are UTC.
 */
class W3cReader implements LineReader {
  private fields: Map<string, number> | null = null;

  read(line: string): LineRead {
    if (line.startsWith('#')) {
      const fields = /^#Fields:\s*(.*)$/i.exec(line);
      if (fields)
        this.fields = new Map(
          fields[1]!
            .trim()
            .split(/\s+/)
            .map((name, index) => [name.toLowerCase(), index] as const),
        );
      return none();
    }
    if (line.trim() === '') return none();
    if (this.fields === null) return unreadable('comes before any #Fields line');
    const missing = NEEDED.filter((name) => !this.fields!.has(name));
    if (missing.length > 0) return unreadable(`its #Fields line has no ${missing.join(', ')}`);
    const values = line.trim().split(/\s+/);
    if (values.length !== this.fields.size) return unreadable(`has ${values.length} fields where #Fields names ${this.fields.size}`);
    const value = (name: string) => {
      const index = this.fields!.get(name);
      return index === undefined ? null : dashed(values[index]);
    };
    const at = new Date(`${value('date')}T${value('time')}Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value('date') ?? '') || Number.isNaN(at.getTime()))
      return unreadable('its date and time cannot be read');
    const address = addressOf(value('c-ip') ?? '');
    if (address === null) return unreadable('its address (c-ip) is not an IPv4 or IPv6 address');
    const stem = value('cs-uri-stem');
    const method = value('cs-method');
    if (stem === null || method === null) return unreadable('it has no method or path');
    const query = value('cs-uri-query');
    const status = value('sc-status');
    return {
      kind: 'record',
      record: {
        at,
        address,
        userAgent: this.fields.has('cs(user-agent)') ? (spaced(value('cs(user-agent)')) ?? '') : null,
        method: method.toUpperCase(),
        path: query === null ? stem : `${stem}?${query}`,
        status: status !== null && /^\d{3}$/.test(status) ? Number(status) : null,
        referrer: value('cs(referer)'),
        host: value('cs-host'),
      },
    };
  }
}

export const w3cFormat: LogFormat = { name: 'W3C extended (IIS, Azure App Service)', reader: () => new W3cReader() };
