/*! headcount: a beacon a page load, and events (docs/pages.md) */
(function (w, d, l) {
  var me = d.currentScript, k = 'headcount-operator', op = null, st = me.getAttribute('data-site'), to = new URL('/api/beacon', me.src).href;
  try {
    var m = /^#headcount-operator=([\w-]+)$/.exec(l.hash);
    if (m) {
      if (m[1] === 'off') localStorage.removeItem(k);
      else localStorage.setItem(k, m[1]);
      history.replaceState(history.state, '', l.pathname + l.search);
    }
    op = localStorage.getItem(k);
  } catch (e) {}
  function send(b) {
    try {
      if (op) b.operator = op;
      if (st) b.site = st;
      navigator.sendBeacon(to, JSON.stringify(b));
    } catch (e) {}
  }
  // sendBeacon: a click that leaves the page is not lost
  function hc(event, props) {
    var b = { path: l.pathname, event: String(event) };
    if (props) b.props = props;
    send(b);
  }
  try {
    var b = { path: l.pathname }, f = d.referrer, s = me.getAttribute('data-subject'), q = new URLSearchParams(l.search), t = new URLSearchParams();
    ['utm_source', 'utm_medium', 'utm_campaign', 'ref'].forEach(function (n) { if (q.get(n)) t.set(n, q.get(n)); });
    if (t + '') b.path += '?' + t;
    if (f && (f = new URL(f).origin) !== l.origin) b.referrer = f + '/';
    if (s) b.subject = s;
    b.width = w.innerWidth;
    send(b);
    var early = (w.headcount || {}).q || [], out = me.hasAttribute('data-outbound'), kinds = (me.getAttribute('data-downloads') || '').split(',');
    w.headcount = hc;
    early.forEach(function (a) { hc.apply(null, a); });
    d.addEventListener('click', function (e) {
      var el = e.target.closest && e.target.closest('[data-headcount-event],a[href]');
      if (!el) return;
      if (el.hasAttribute('data-headcount-event')) return hc(el.getAttribute('data-headcount-event'));
      var u = new URL(el.href, l.href);
      if (u.host === l.host && kinds.indexOf(u.pathname.split('.').pop().toLowerCase()) >= 0) hc('download', { path: u.pathname });
      else if (out && u.host !== l.host && /^https?:$/.test(u.protocol)) hc('outbound', { host: u.host });
    }, true);
  } catch (e) { /* counting never breaks the page */ }
})(window, document, location);
