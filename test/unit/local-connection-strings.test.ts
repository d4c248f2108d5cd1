import { describe, expect, it } from 'vitest';
import { azuriteConnectionString, queueAt, serviceUrl } from '../../local/services';

// The local stack's reading and rewriting of a storage connection string: where a service is, and the queue service
// reached through a proxy while the others stay where they are.

const local = azuriteConnectionString(10001, { blobPort: 10000, tablePort: 10002 });

describe('a storage connection string, read and rewritten', () => {
  it('says where each service is, and nothing for one it does not name or cannot be read', () => {
    expect(serviceUrl(local, 'Queue')?.href).toBe('http://127.0.0.1:10001/devstoreaccount1');
    expect(serviceUrl(local, 'Blob')?.port).toBe('10000');
    expect(serviceUrl(azuriteConnectionString(10001), 'Table')).toBeUndefined();
    expect(serviceUrl('UseDevelopmentStorage=true', 'Queue')).toBeUndefined();
    expect(serviceUrl('QueueEndpoint=not a url;', 'Queue')).toBeUndefined();
    expect(serviceUrl(undefined, 'Queue')).toBeUndefined();
  });

  it('moves the queue service to another origin, keeping its account path and every other service', () => {
    const moved = queueAt(local, 'http://127.0.0.1:4321');
    expect(serviceUrl(moved, 'Queue')?.href).toBe('http://127.0.0.1:4321/devstoreaccount1');
    expect(moved.replace('4321', '10001')).toBe(local);
  });
});
