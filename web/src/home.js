import { $, el, plain, renderPanel } from "./dom.js";
import { send } from "./session.js";

// The home page (the App Launcher's Entry Point): the member's tables in this server,
// how to open a new one and play the deal of the day, and this channel's table if any.
export function renderHome(home) {
  document.documentElement.lang = home.language || "";
  document.body.classList.remove("my-turn", "watching");
  document.body.dataset.home = "1";
  delete document.body.dataset.version;
  $("title").textContent = plain(home.panel.title);
  $("lines").textContent = "";
  for (const id of ["final", "seats", "centre", "groups", "mine", "hand"]) $(id).replaceChildren();
  $("trick-label").textContent = "";
  renderPanel($("panel"), home.panel);
  if (home.panel.fields.length) $("panel").append(el("p", "begin", plain(home.begin)));
  const box = $("actions");
  box.replaceChildren();
  if (home.open) {
    const button = el("button", "open-table", home.open);
    button.onclick = () => send(null, "table");
    box.append(button);
  }
}
