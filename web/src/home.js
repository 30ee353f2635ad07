import { $, el, plain, renderPanel } from "./dom.js";
import { send, state } from "./session.js";

// The home page (the App Launcher's Entry Point): the member's tables in this server,
// this channel's table to open, or each game's "New table" when it has none, and each
// game's deal of the day to play here (or the note that it was played today).
export function renderHome(home) {
  document.documentElement.lang = home.language || "";
  document.body.classList.remove("my-turn", "watching");
  document.body.dataset.home = "1";
  delete document.body.dataset.version;
  delete document.body.dataset.daily;
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
  for (const game of home.new || []) {
    const button = el("button", "new-table", game.label);
    button.dataset.game = game.game;
    button.onclick = () => sendHome({ type: "new", game: game.game });
    box.append(button);
  }
  for (const daily of home.daily || []) {
    if (daily.note) {
      const note = el("p", "daily-played", daily.note);
      note.dataset.game = daily.game;
      box.append(note);
      continue;
    }
    const button = el("button", "daily", daily.label);
    button.dataset.game = daily.game;
    button.dataset.day = daily.day;
    button.onclick = () => sendHome({ type: "daily", game: daily.game });
    box.append(button);
  }
}

// A deal of the day played here: its day, and once over, its result and the way home.
export function renderDaily(view) {
  if (!view.daily) { delete document.body.dataset.daily; return; }
  document.body.dataset.daily = view.daily.day;
  if (!view.result) return;
  renderPanel($("final"), view.result);
  const button = el("button", "home", view.daily.home);
  button.onclick = () => sendHome({ type: "home" });
  $("actions").append(button);
}

function sendHome(frame) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(frame));
}
