// The widget manager typesets through MathJax 2's MathJax.Hub.Queue; the site loads MathJax 3.
// A small shim maps Queue onto MathJax 3's typesetPromise. It runs after Sphinx's MathJax
// configuration (priority 501) and before MathJax itself (deferred).
(function () {
  function hub() {
    return {Queue: function (job) {
      var el = job && job[2];
      if (el && window.MathJax && window.MathJax.typesetPromise) {
        window.MathJax.typesetPromise([el]).catch(function () {});
      }
    }};
  }
  var mj = window.MathJax = window.MathJax || {};
  mj.Hub = hub();
  var startup = mj.startup = mj.startup || {};
  startup.ready = function () {
    window.MathJax.startup.defaultReady();
    window.MathJax.Hub = hub();
  };
}());
