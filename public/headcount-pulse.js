/*! headcount-pulse: the first screen's figure, <headcount-pulse></headcount-pulse>, read from the app's /api/pulse.
 * Install: <script defer src="https://<app>/api/assets/headcount-pulse.js"></script>
 * Attributes: endpoint="https://<app>/api/pulse" (default: the pulse of the app this script came from).
 * A figure that cannot be read shows a dash; nothing here ever throws on the host page. */
(function () {
  'use strict';
  var script = document.currentScript;
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  var DASH = '\u2013';

  var isCount = function (n) { return typeof n === 'number' && isFinite(n) && n >= 0; };
  /** The unit that fits the number: one for 1, many for anything else. */
  var unitOf = function (n, one, many) { return n === 1 ? one : many; };
  /** A count as digits grouped by thousands, or a dash when it was not read. */
  var figure = function (n) { return isCount(n) ? n.toLocaleString('en-GB') : DASH; };
  /** A count with its unit: "no people", "1 person", "2 people", or a dash. */
  var unitWords = function (n, one, many) {
    if (!isCount(n)) return DASH;
    return n === 0 ? 'no ' + many : figure(n) + ' ' + unitOf(n, one, many);
  };
  /** A UTC day (yyyy-MM-dd) as "23 Oct", with the year when it is not the year of `today`; null when unreadable. */
  var dayWords = function (day, today) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day || '');
    if (!m) return null;
    var words = Number(m[3]) + ' ' + MONTHS[Number(m[2]) - 1];
    return today && String(today).slice(0, 4) !== m[1] ? words + ' ' + m[1] : words;
  };
  var lastDay = function (run) { return run && run.length ? run[run.length - 1].day : null; };

  /**
   * What the pulse says: the visits by people once they are counted, else the people counted once, each "since"
   * the day its count began (never "all time"), with the last 30 days to draw; a dash for what was not read.
   */
  var headline = function (pulse) {
    var p = pulse || {};
    var visits = isCount(p.visits_all_time) && p.visits_all_time > 0 && dayWords(p.visits_from, lastDay(p.visits_by_day));
    if (visits) {
      return {
        figure: figure(p.visits_all_time),
        words: unitOf(p.visits_all_time, 'visit', 'visits') + ' by people since ' + visits,
        run: (p.visits_by_day || []).map(function (d) { return d.visits; }),
        runLabel: 'visits by people',
      };
    }
    var run = (p.people_new_by_day || []).map(function (d) { return d.people; });
    if (!isCount(p.people_all_time)) return { figure: DASH, words: 'people', run: [], runLabel: 'new people' };
    var since = dayWords(p.counted_from, lastDay(p.people_new_by_day));
    if (p.people_all_time === 0 || !since) return { figure: 'No', words: 'people yet', run: run, runLabel: 'new people' };
    return { figure: figure(p.people_all_time), words: unitOf(p.people_all_time, 'person', 'people') + ' since ' + since, run: run, runLabel: 'new people' };
  };

  var SVG = 'http://www.w3.org/2000/svg';
  var bars = function (run, label) {
    var svg = document.createElementNS(SVG, 'svg');
    var width = Math.max(run.length, 1) * 5;
    svg.setAttribute('viewBox', '0 0 ' + width + ' 24');
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('role', 'img');
    var top = Math.max.apply(null, run.concat([1]));
    svg.setAttribute('aria-label', run.length ? 'The last ' + run.length + ' days of ' + label + ', ' + run.join(', ') : 'No days read');
    run.forEach(function (n, i) {
      var rect = document.createElementNS(SVG, 'rect');
      var h = isCount(n) && n > 0 ? Math.max(2, Math.round((n / top) * 22)) : 1;
      rect.setAttribute('x', String(i * 5));
      rect.setAttribute('y', String(24 - h));
      rect.setAttribute('width', '4');
      rect.setAttribute('height', String(h));
      svg.appendChild(rect);
    });
    return svg;
  };

  var STYLE = ':host{display:inline-block;font:inherit;color:inherit;line-height:1.2}' +
    'p{margin:0}strong{font-size:1.6em;font-variant-numeric:tabular-nums;margin-right:.25em}' +
    'svg{display:block;width:10em;height:1.5em;margin-top:.3em;fill:currentColor;opacity:.75}';

  // A constructed sheet where the browser has one, so a host page whose policy forbids inline styles still styles
  // the widget; else a <style> element.
  var sheet = null;
  var styled = function (root) {
    try {
      if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(STYLE); }
      root.adoptedStyleSheets = [sheet];
    } catch (e) {
      var style = document.createElement('style');
      style.textContent = STYLE;
      root.prepend(style);
    }
  };

  if (!window.customElements || customElements.get('headcount-pulse')) return;

  class HeadcountPulse extends HTMLElement {
    connectedCallback() {
      try {
        if (!this.shadowRoot) this.attachShadow({ mode: 'open' });
        this.show(null, 'loading');
        this.read();
      } catch (e) { /* the figure is never the page: the host page carries on */ }
    }

    /** The pulse's address: the endpoint attribute, else /api/pulse on the origin this script was served from; `site` picks one site. */
    endpoint() {
      var url = new URL(this.getAttribute('endpoint') || new URL('/api/pulse', (script && script.src) || location.href).href);
      if (this.getAttribute('site')) url.searchParams.set('site', this.getAttribute('site'));
      return url.href;
    }

    read() {
      var self = this;
      var stop = typeof AbortController === 'function' ? new AbortController() : null;
      var timer = setTimeout(function () { if (stop) stop.abort(); }, 10000);
      fetch(this.endpoint(), { credentials: 'omit', signal: stop && stop.signal })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (pulse) { self.show(pulse, pulse && isCount(pulse.people_all_time) ? 'ready' : 'unread'); })
        .catch(function () { self.show(null, 'unread'); })
        .then(function () { clearTimeout(timer); });
    }

    show(pulse, state) {
      try {
        var said = headline(pulse);
        var root = this.shadowRoot;
        var line = document.createElement('p');
        var strong = document.createElement('strong');
        strong.textContent = said.figure;
        var words = document.createElement('span');
        words.textContent = said.words;
        line.append(strong, words);
        root.replaceChildren(line, bars(said.run, said.runLabel));
        styled(root);
        this.setAttribute('data-state', state);
        this.setAttribute('aria-busy', String(state === 'loading'));
      } catch (e) { /* as above */ }
    }
  }

  HeadcountPulse.words = { unitOf: unitOf, unitWords: unitWords, figure: figure, dayWords: dayWords, headline: headline };
  try { customElements.define('headcount-pulse', HeadcountPulse); } catch (e) { /* defined twice: the first stands */ }
})();
