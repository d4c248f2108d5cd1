/*! headcount: a beacon a page load and its engagement, route changes, and events (docs/pages.md) */
(function (w, d, l, h) {
  var me = d.currentScript, k = 'headcount-operator', op = null, st = me.getAttribute('data-site'), to = new URL('/api/beacon', me.src).href;
  var DAY = 864e5, hashed = me.hasAttribute('data-hash'), view = null;
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
    var b = { path: where(), event: String(event) };
    if (props) b.props = props;
    send(b);
  }
  // The page: its path (with its hash route under data-hash, never the route's query) and only the campaign tags.
  function where() {
    return l.pathname + (hashed ? l.hash.split('?')[0] : '');
  }
  function page() {
    var q = new URLSearchParams(l.search), t = new URLSearchParams();
    ['utm_source', 'utm_medium', 'utm_campaign', 'ref'].forEach(function (n) { if (q.get(n)) t.set(n, q.get(n)); });
    return where() + (t + '' ? '?' + t : '');
  }
  // Engaged time is counted only while the page is visible and focused.
  function tick() {
    var now = Date.now();
    if (view.on) view.ms += now - view.on;
    view.on = d.visibilityState === 'visible' && d.hasFocus() ? now : 0;
  }
  function scrolled() {
    var e = d.documentElement, tall = Math.max(e.scrollHeight, d.body ? d.body.scrollHeight : 0);
    view.scroll = Math.max(view.scroll, tall <= w.innerHeight ? 100 : Math.min(100, Math.round(((w.scrollY + w.innerHeight) / tall) * 100)));
  }
  // Once a page view, when it is hidden or left or the route changes; `since_ms` joins it to its page load's visit.
  function engage() {
    if (!view || view.sent) return;
    tick();
    view.sent = 1;
    send({ path: view.path, engagement: { ms: Math.min(view.ms, DAY), scroll: view.scroll, since_ms: Math.min(Date.now() - view.at, DAY) } });
  }
  function load(referrer) {
    var b = { path: page(), width: w.innerWidth }, s = me.getAttribute('data-subject');
    if (referrer) b.referrer = referrer;
    if (s) b.subject = s;
    send(b);
    view = { path: b.path, where: where(), url: l.origin + b.path, at: Date.now(), ms: 0, on: 0, scroll: 0, sent: 0 };
    tick();
    scrolled();
  }
  // A route change is a page load of the new path, linked from the one before; the same path sends nothing.
  function moved() {
    if (where() === view.where) return;
    var from = view.url;
    engage();
    load(from);
  }
  try {
    var f = d.referrer;
    if (f && (f = new URL(f).origin) !== l.origin) f += '/';
    else if (f) f = d.referrer.split(/[?#]/)[0];
    load(f);
    var push = h.pushState;
    h.pushState = function () {
      var r = push.apply(this, arguments);
      moved();
      return r;
    };
    w.addEventListener('popstate', moved);
    if (hashed) w.addEventListener('hashchange', moved);
    w.addEventListener('focus', tick);
    w.addEventListener('blur', tick);
    d.addEventListener('visibilitychange', function () { return d.visibilityState === 'hidden' ? engage() : tick(); });
    w.addEventListener('pagehide', engage);
    w.addEventListener('scroll', scrolled, { passive: true });
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
})(window, document, location, history);
