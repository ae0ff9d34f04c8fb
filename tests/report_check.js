(function () {
  var res = {errors: [], annotations: []};
  try {
    var data = JSON.parse(document.getElementById('cuelex-data').textContent);
    var panes = {source: document.getElementById('source-text'),
                 output: document.getElementById('output-text')};
    function pieces(pane) {
      var map = {}, pos = 0, n;
      var walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
      while ((n = walker.nextNode())) {
        var hl = n.parentElement.closest('.hl');
        if (hl && pane.contains(hl)) {
          (hl.getAttribute('data-ann') || '').split(' ').forEach(function (id) {
            (map[id] = map[id] || []).push([pos, pos + n.data.length, hl]);
          });
        }
        pos += n.data.length;
      }
      return map;
    }
    var maps = {source: pieces(panes.source), output: pieces(panes.output)};
    data.annotations.forEach(function (a) {
      var segs = maps[a.side][a.id] || [];
      var r = {id: a.id, side: a.side, kind: a.kind, level: a.level, found: segs.length};
      if (segs.length) {
        var contiguous = true;
        for (var k = 1; k < segs.length; k++) {
          if (segs[k][0] !== segs[k - 1][1]) { contiguous = false; }
        }
        r.contiguous = contiguous;
        r.start = segs[0][0];
        r.end = segs[segs.length - 1][1];
        r.expected_start = a.js_start;
        r.expected_end = a.js_end;
        r.text = panes[a.side].textContent.slice(r.start, r.end);
        r.expected_text = a.text;
        var el = segs[0][2], cs = getComputedStyle(el), box = el.getBoundingClientRect();
        r.background = cs.backgroundColor;
        r.underline = cs.textDecorationLine.indexOf('underline') >= 0;
        r.visible = box.width > 0 && box.height > 0;
      }
      res.annotations.push(r);
    });
    res.source_text = panes.source.textContent;
    res.output_text = panes.output.textContent;
    res.elements_in_panes = panes.source.querySelectorAll('script,b,img,iframe').length +
                            panes.output.querySelectorAll('script,b,img,iframe').length;
    res.fate_marks = Array.prototype.map.call(
      panes.source.querySelectorAll('a.fate'), function (e) {
        var target = document.querySelector(e.getAttribute('href'));
        return {fate: e.getAttribute('data-fate'), href: e.getAttribute('href'),
                target_exists: !!target,
                mark: getComputedStyle(e, '::after').content};
      });
  } catch (e) {
    res.errors.push(String(e && e.stack || e));
  }
  res.pwned = (typeof window.__pwned !== 'undefined') || document.title === 'PWNED';
  res.title = document.title;
  var pre = document.createElement('pre');
  pre.id = 'cuelex-check';
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
})();
