import AppFlipDigest
import Foundation

/// report.html's own style and script, inline, and the Content-Security-Policy that lets the page run those two and
/// nothing else: each allowed by its SHA-256, no inline event handler, nothing fetched from anywhere.
enum HTMLReportAssets {
    static let style = """
        :root{color-scheme:light dark;--pass:#1a7f37;--info:#0969da;--warn:#9a6700;--fail:#cf222e;--error:#8250df;--skip:#6e7781;--line:#d0d7de}
        [hidden]{display:none!important}
        body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1180px;padding:0 20px 60px}
        h1{font-size:1.6em;margin:.8em 0 .3em}h2{border-bottom:1px solid var(--line);padding-bottom:.2em;margin-top:1.6em}
        code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
        pre{background:rgba(127,127,127,.1);padding:8px 10px;overflow:auto;white-space:pre-wrap;word-break:break-all;max-height:32em}
        table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
        th{background:rgba(127,127,127,.08)}td.n{text-align:right;font-variant-numeric:tabular-nums}
        .verdict{font-size:1.15em;padding:10px 14px;border-left:6px solid var(--skip);background:rgba(127,127,127,.08)}
        .verdict.v-pass{border-color:var(--pass)}.verdict.v-warn{border-color:var(--warn)}.verdict.v-fail{border-color:var(--fail)}
        .verdict.v-error{border-color:var(--error)}.verdict.v-info{border-color:var(--info)}
        .v-pass .tag,.tag.pass{color:var(--pass)}.tag.info{color:var(--info)}.tag.warn{color:var(--warn)}.tag.fail{color:var(--fail)}
        .tag.error{color:var(--error)}.tag.skip{color:var(--skip)}.tag{font-weight:600}
        details{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:8px 0}summary{cursor:pointer;font-weight:600}
        .bar rect.pass{fill:var(--pass)}.bar rect.info{fill:var(--info)}.bar rect.warn{fill:var(--warn)}.bar rect.fail{fill:var(--fail)}
        .bar rect.error{fill:var(--error)}.bar rect.skip{fill:var(--skip)}
        #filters{position:sticky;top:0;background:Canvas;border-bottom:1px solid var(--line);padding:8px 0;display:flex;gap:10px;flex-wrap:wrap;align-items:center}
        #filters label{font-size:.9em}#filter-count{color:var(--skip);font-size:.9em}
        button.copy{float:right;font-size:.8em}dl.provenance{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px}
        dl.provenance dt{font-weight:600}dl.provenance dd{margin:0;word-break:break-all}
        .notes p{margin:.4em 0}.muted{color:var(--skip)}
        """

    static let script = """
        (function () {
          'use strict';
          var keys = ['verdict', 'profile', 'level', 'q'];
          var form = document.getElementById('filters');
          function tokens(element, name) { return (element.getAttribute('data-' + name) || '').split(' '); }
          function read() {
            var hash = window.location.hash.slice(1), wanted = {};
            if (hash.indexOf('=') < 0) { return wanted; }
            hash.split('&').forEach(function (pair) {
              var at = pair.indexOf('=');
              if (at < 1) { return; }
              try { wanted[decodeURIComponent(pair.slice(0, at))] = decodeURIComponent(pair.slice(at + 1).replace(/\\+/g, ' ')); } catch (e) { }
            });
            return wanted;
          }
          function apply(wanted) {
            var query = (wanted.q || '').toLowerCase(), items = document.querySelectorAll('[data-f]'), shown = 0;
            for (var i = 0; i < items.length; i++) {
              var item = items[i];
              var keep = (!wanted.verdict || tokens(item, 'verdict').indexOf(wanted.verdict) >= 0)
                && (!wanted.profile || tokens(item, 'profile').indexOf(wanted.profile) >= 0)
                && (!wanted.level || tokens(item, 'level').indexOf(wanted.level) >= 0)
                && (!query || (item.getAttribute('data-search') || '').indexOf(query) >= 0);
              item.hidden = !keep;
              if (keep) { shown += 1; }
            }
            var filtering = keys.some(function (key) { return wanted[key]; });
            document.getElementById('filter-count').textContent = filtering ? shown + ' of ' + items.length + ' items shown' : 'all ' + items.length + ' items shown';
            keys.forEach(function (key) { var field = form.elements[key]; if (field && field.value !== (wanted[key] || '')) { field.value = wanted[key] || ''; } });
          }
          function fromForm() {
            var wanted = {}, parts = [];
            keys.forEach(function (key) {
              var value = form.elements[key].value;
              if (value) { wanted[key] = value; parts.push(encodeURIComponent(key) + '=' + encodeURIComponent(value)); }
            });
            window.history.replaceState(null, '', parts.length ? '#' + parts.join('&') : window.location.pathname + window.location.search);
            apply(wanted);
          }
          form.hidden = false;
          form.addEventListener('input', fromForm);
          form.addEventListener('change', fromForm);
          form.addEventListener('submit', function (event) { event.preventDefault(); });
          document.getElementById('filter-reset').addEventListener('click', function () { form.reset(); fromForm(); });
          window.addEventListener('hashchange', function () { if (window.location.hash.indexOf('=') >= 0) { apply(read()); } });
          var buttons = document.querySelectorAll('button.copy');
          for (var b = 0; b < buttons.length; b++) {
            buttons[b].hidden = false;
            buttons[b].addEventListener('click', function (event) {
              var source = document.getElementById(event.currentTarget.getAttribute('data-copy'));
              if (source && navigator.clipboard) { navigator.clipboard.writeText(source.textContent).catch(function () { }); }
            });
          }
          apply(read());
          document.documentElement.setAttribute('data-ready-ms', String(Math.round(window.performance.now())));
        }());
        """

    /// `'sha256-…'` of a style or script's exact text, as CSP hash sources are written.
    static func hashSource(_ text: String) -> String {
        "'sha256-" + Data(SHA256.hash(Array(text.utf8))).base64EncodedString() + "'"
    }

    /// The page's policy: nothing by default; its one style and one script by hash; no base, no form target, no
    /// framing, no referrer.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src \(hashSource(style)); script-src \(hashSource(script)); "
        + "img-src 'none'; base-uri 'none'; form-action 'none'"
}
