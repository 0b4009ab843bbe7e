// The page refusing an embed link (used, expired, forged: shared/http/embed_page.py):
// it tells the host page, on the origins the link's API key allows, with an `error`.
const section = document.getElementById("refused");
const origins = (section.dataset.origins || "").split(" ").filter(Boolean);
const message = { source: "boardgames", type: "error", code: section.dataset.code, message: section.querySelector("p").textContent };
if (window.parent !== window) for (const origin of origins) window.parent.postMessage(message, origin);
