/*! headcount: counts this page load once, by path and the referring site (not this one); of the query only the
 * campaign tags utm_source, utm_medium, utm_campaign and ref are sent, nothing else.
 * Install: <script defer src="https://<app>/api/assets/headcount.js"></script>  (data-subject="…" names a subject)
 * Operator mark: open a page once as https://<site>/#headcount-operator=<token> (the link on the dashboard);
 * this browser's page loads are then the site's own reads. #headcount-operator=off removes the mark. */
(function (w, d) {
  var me = d.currentScript, key = 'headcount-operator', operator = null;
  try {
    var mark = /^#headcount-operator=([\w-]+)$/.exec(location.hash);
    if (mark) {
      if (mark[1] === 'off') w.localStorage.removeItem(key);
      else w.localStorage.setItem(key, mark[1]);
      history.replaceState(history.state, '', location.pathname + location.search);
    }
    operator = w.localStorage.getItem(key);
  } catch (e) { /* storage may be refused (private modes): the page load is still counted */ }
  try {
    var body = { path: location.pathname }, from = d.referrer, subject = me && me.getAttribute('data-subject');
    var query = new URLSearchParams(location.search), tags = new URLSearchParams();
    ['utm_source', 'utm_medium', 'utm_campaign', 'ref'].forEach(function (tag) { if (query.get(tag)) tags.set(tag, query.get(tag)); });
    if (tags.toString()) body.path += '?' + tags;
    if (from && (from = new URL(from).origin) !== location.origin) body.referrer = from + '/';
    if (subject) body.subject = subject;
    if (operator) body.operator = operator;
    navigator.sendBeacon(new URL('/api/beacon', me.src).href, JSON.stringify(body));
  } catch (e) { /* counting never breaks the page */ }
})(window, document);
