/*
 * embed.js: a game seat in your own page (docs/api.md "Embedding in your platform").
 * Served by each game service at /embed.js; plain script, no build step.
 *
 *   <div id="game"></div>
 *   <script src="https://games.example/embed.js"></script>
 *   <script>
 *     const seat = BoardgamesEmbed.mount(document.getElementById("game"), url, {
 *       onReady(m) {}, onTurn(m) {}, onMove(m) {}, onGameOver(m) {}, onError(m) {},
 *     });
 *     seat.setTheme({ accent: "#c2185b" }); seat.setLanguage("de"); seat.destroy();
 *   </script>
 *
 * `url` is what POST /embeds answered (a one-use link: ask your backend for a new one on
 * every page load). The frame takes the element's width and the height the game reports.
 * Messages are taken only from that frame and that origin; commands go only there.
 */
(function (global) {
  "use strict";
  var SOURCE = "boardgames";
  var CALLBACKS = { ready: "onReady", your_turn: "onTurn", moved: "onMove", game_over: "onGameOver", error: "onError", height: "onHeight" };

  function mount(element, url, callbacks, options) {
    callbacks = callbacks || {};
    options = options || {};
    var origin = new URL(url, global.location.href).origin;
    var frame = global.document.createElement("iframe");
    frame.src = url;
    frame.title = options.title || "Game";
    frame.setAttribute("referrerpolicy", "no-referrer");
    frame.style.width = "100%";
    frame.style.border = "0";
    frame.style.display = "block";
    frame.style.height = (options.minHeight || 320) + "px";
    element.appendChild(frame);

    function onMessage(event) {
      if (event.source !== frame.contentWindow || event.origin !== origin) return;
      var data = event.data;
      if (!data || data.source !== SOURCE || !CALLBACKS.hasOwnProperty(data.type)) return;
      if (data.type === "height" && typeof data.height === "number") {
        frame.style.height = Math.max(options.minHeight || 0, Math.ceil(data.height)) + "px";
      }
      var callback = callbacks[CALLBACKS[data.type]];
      if (typeof callback === "function") callback(data);
    }
    global.addEventListener("message", onMessage);

    function send(message) {
      message.source = SOURCE;
      if (frame.contentWindow) frame.contentWindow.postMessage(message, origin);
    }
    return {
      frame: frame,
      setTheme: function (theme) { send({ type: "set_theme", theme: theme }); },
      setLanguage: function (language) { send({ type: "set_language", language: language }); },
      destroy: function () {
        global.removeEventListener("message", onMessage);
        if (frame.parentNode) frame.parentNode.removeChild(frame);
      },
    };
  }

  global.BoardgamesEmbed = { mount: mount };
})(window);
