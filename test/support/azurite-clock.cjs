'use strict';
// Loaded into the tests' Azurite process before Azurite itself (`startAzurite({ preload })`, node's --require): a
// request that carries `x-local-clock-ahead-ms: <ms>` is served as if that much later, by its clock for every expiry
// and visibility it reads, so a test sees a message expire without waiting for it to. Every other request, and so
// every other test file sharing this Azurite, is served at the machine's time.

const http = require('node:http');
const { AsyncLocalStorage } = require('node:async_hooks');

/** The header a request names its time with, in milliseconds ahead of the machine's. */
const AHEAD_HEADER = 'x-local-clock-ahead-ms';

const RealDate = Date;
const ahead = new AsyncLocalStorage();
const now = () => RealDate.now() + (ahead.getStore() ?? 0);

/** Date, reading the request's clock: `new Date()` and `Date.now()` are the machine's time plus the request's lead. */
function RequestDate(...args) {
  if (!new.target) return new RealDate(now()).toString();
  return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
}
RequestDate.prototype = RealDate.prototype;
RequestDate.now = now;
RequestDate.parse = RealDate.parse;
RequestDate.UTC = RealDate.UTC;
// So that `date.constructor === Date` still holds for every date made in this process.
RealDate.prototype.constructor = RequestDate;
globalThis.Date = RequestDate;

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req) {
  const lead = event === 'request' ? Number(req.headers[AHEAD_HEADER]) : 0;
  if (lead > 0) return ahead.run(lead, () => emit.apply(this, arguments));
  return emit.apply(this, arguments);
};

module.exports = { AHEAD_HEADER };
