// The Activity's page: authorize through Discord's SDK, exchange the code at the
// backend, then follow the member's seat over a websocket and send their moves.
// Every word shown comes from the backend, already in the member's language.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

// Inside Discord the page has `frame_id` (the SDK's handshake); the tests open it with
// `mock=1`, the SDK's mock mode, and hand it the code and instance Discord would.
function makeSdk(clientId) {
  if (!params.has("mock")) return new DiscordSDK(clientId);
  const sdk = new DiscordSDKMock(clientId, null, null, null);
  sdk._updateCommandMocks({
    authorize: async () => ({ code: params.get("mock_code") || "" }),
    userSettingsGetLocale: async () => ({ locale: params.get("mock_locale") || "" }),
  });
  Object.defineProperty(sdk, "instanceId", { value: params.get("mock_instance") || "" });
  return sdk;
}

const state = { token: "", instance: "", locale: "", ws: null, view: null, chosen: new Set(),
                tries: 0 };

async function start() {
  const config = await (await fetch("/.proxy/api/config")).json();
  const sdk = makeSdk(config.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id, response_type: "code", state: "", prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("/.proxy/api/token", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = await answer.json();
  if (!answer.ok) { showStatus(body.text || body.error); return; }
  state.token = body.access_token;
  state.instance = sdk.instanceId;
  try { state.locale = (await sdk.commands.userSettingsGetLocale()).locale; } catch { /* */ }
  state.locale = state.locale || navigator.language;
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/.proxy/ws`);
  state.ws = ws;
  ws.onopen = () => {
    state.tries = 0;
    ws.send(JSON.stringify({ type: "hello", access_token: state.token,
                             instance_id: state.instance, locale: state.locale }));
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    // Dropped (a network change, a restart, too slow): come back and be shown the table
    // as it is now; nothing is lost, the table is the bot's.
    if (state.ws !== ws) return;
    state.tries += 1;
    setTimeout(connect, Math.min(5000, 300 * state.tries));
  };
}

function receive(frame) {
  if (frame.type === "view") {
    state.view = frame;
    state.chosen.clear();
    showStatus("");
    render(frame);
  } else if (frame.type === "refused") {
    showStatus(frame.text);
  } else if (frame.type === "hint") {
    showStatus(frame.text, "hint");
  }
}

function send(action, type = "act") {
  const view = state.view;
  if (!view || !state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  const frame = { type, version: view.version };
  if (type === "act") frame.action = action;
  state.ws.send(JSON.stringify(frame));
}

function showStatus(text, kind = "") {
  $("status").textContent = text || "";
  $("status").className = kind;
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardEl(card) {
  const node = el("span", "card", card.label);
  if (/[♥♦]/.test(card.label)) node.classList.add("red");
  node.dataset.card = card.name;
  return node;
}

function render(view) {
  document.documentElement.lang = view.language || "";
  const scene = view.scene;
  $("title").textContent = scene ? scene.title : view.title || "";
  $("lines").textContent = scene ? scene.lines.join("\n") : "";
  renderSeats(view);
  renderTrick(scene);
  renderGroups(scene);
  renderPanel(view.panel);
  renderActions(view);
  renderHand(view);
  document.body.dataset.version = String(view.version); // what the page shows now
}

function renderSeats(view) {
  const seats = $("seats");
  seats.replaceChildren();
  (view.scene ? view.scene.seats : []).forEach((seat, index) => {
    const box = el("div", "seat");
    if (seat.to_act) box.classList.add("to-act");
    if (index === view.seat) box.classList.add("me");
    box.append(el("b", "", seat.name));
    const lines = [...seat.lines];
    if (seat.backs) lines.push(`🂠 ${seat.backs}`);
    box.append(el("span", "", lines.join(" · ")));
    box.dataset.seat = String(index);
    seats.append(box);
  });
}

function renderTrick(scene) {
  $("trick-label").textContent = scene ? scene.centre_label : "";
  const centre = $("centre");
  centre.replaceChildren();
  for (const played of scene ? scene.centre : []) {
    const box = el("div", "played");
    box.append(cardEl(played), el("span", "", played.seat >= 0
      ? scene.seats[played.seat].name : ""));
    centre.append(box);
  }
}

function renderGroups(scene) {
  const groups = $("groups");
  groups.replaceChildren();
  for (const group of scene ? scene.groups : []) {
    const row = el("div", "group", `${group.label} `);
    group.cards.forEach((card) => row.append(cardEl(card)));
    if (group.backs) row.append(el("span", "", ` 🂠 ${group.backs}`));
    groups.append(row);
  }
}

function renderPanel(panel) {
  const box = $("panel");
  box.replaceChildren();
  if (!panel) return;
  box.append(el("h2", "", plain(panel.title)));
  if (panel.description) box.append(el("div", "", plain(panel.description)));
  for (const field of panel.fields) box.append(el("div", "", `${plain(field.name)}: ${plain(field.value)}`));
}

// The game's panels are written for Discord's Markdown: shown here as plain text.
function plain(text) { return String(text).replace(/\*\*|__|~~|`/g, "").replace(/\\([\\*_~`|>])/g, "$1"); }

function renderActions(view) {
  const box = $("actions");
  box.replaceChildren();
  for (const action of view.actions || []) {
    if (action.card) continue; // a card's move: tap the card
    const button = el("button", "", action.label);
    button.onclick = () => send(JSON.parse(action.key));
    box.append(button);
  }
  for (const type of ["hint", "claim"]) { // the platform's, as the panel offers them
    if (!view[type]) continue;
    const button = el("button", "platform", view[type]);
    button.onclick = () => send(null, type);
    box.append(button);
  }
  for (const group of view.groups || []) {
    const button = el("button", "confirm", group.label);
    button.onclick = () => {
      if (group.counts.includes(state.chosen.size)) {
        send({ action: group.action, [group.key]: [...state.chosen] });
      } else {
        showStatus(group.label);
      }
    };
    box.append(button);
  }
}

function renderHand(view) {
  const hand = $("hand");
  hand.replaceChildren();
  const byCard = new Map();
  for (const action of view.actions || []) {
    if (!action.card) continue;
    if (!byCard.has(action.card)) byCard.set(action.card, []);
    byCard.get(action.card).push(action);
  }
  const choosable = new Set((view.groups || []).flatMap((g) => g.cards));
  for (const card of view.hand || []) {
    const node = cardEl(card);
    const moves = byCard.get(card.name);
    if (moves || choosable.has(card.name)) node.classList.add("legal");
    node.onclick = () => tapCard(card, node, moves);
    hand.append(node);
  }
}

function tapCard(card, node, moves) {
  if (moves && moves.length === 1) { send(JSON.parse(moves[0].key)); return; }
  if (moves) {
    // one card, several moves (an opening lead that may call a card or name a trump)
    const box = $("actions");
    box.replaceChildren();
    for (const move of moves) {
      const button = el("button", "", move.label);
      button.onclick = () => send(JSON.parse(move.key));
      box.append(button);
    }
    return;
  }
  if (node.classList.contains("legal")) {
    if (state.chosen.has(card.name)) state.chosen.delete(card.name);
    else state.chosen.add(card.name);
    node.classList.toggle("chosen");
  }
}

start().catch((error) => showStatus(String(error)));
