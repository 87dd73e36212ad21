// Memory Hub: the little script the pages use. Every page works without it; it only
// copies refs, asks before destructive buttons, and ticks all review operations.
"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest("button.copy");
  if (!button) { return; }
  var text = button.getAttribute("data-copy") || "";
  var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, function () {});
  } else {
    var area = document.createElement("textarea");
    area.value = text; document.body.appendChild(area); area.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* nothing to do */ }
    document.body.removeChild(area);
  }
});
document.addEventListener("submit", function (event) {
  var question = event.target.getAttribute("data-confirm");
  if (question && !window.confirm(question)) { event.preventDefault(); }
});
document.addEventListener("change", function (event) {
  var all = event.target.closest("input[data-check-all]");
  if (!all) { return; }
  var form = all.form;
  form.querySelectorAll("input[name='" + all.getAttribute("data-check-all") + "']").forEach(function (box) {
    box.checked = all.checked;
  });
});
