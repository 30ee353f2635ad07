// The Activity's page: authorize through Discord's SDK, exchange the code at the
// backend, then follow the member's seat over a websocket and send their moves.
// Every word shown comes from the backend, already in the member's language; the page
// knows no game: it draws the game's Scene (seats, the middle, rows of cards, lines)
// and offers exactly the moves its view lists.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { showStatus } from "./dom.js";
import { renderDaily, renderHome } from "./home.js";
import { hideRecap, movedSince, showRecap } from "./recap.js";
import { state } from "./session.js";
import { render, renderReview } from "./table.js";

const params = new URLSearchParams(location.search);

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
    if (movedSince(state.view, frame)) hideRecap();
    state.view = frame;
    state.chosen.clear();
    showStatus("");
    render(frame);
    renderDaily(frame);
    if (frame.recap) showRecap(frame.recap);
  } else if (frame.type === "home") {
    state.view = null;
    hideRecap();
    showStatus("");
    renderHome(frame);
  } else if (frame.type === "refused") {
    showStatus(frame.text);
  } else if (frame.type === "review") {
    renderReview(frame);
  } else if (frame.type === "hint") {
    showStatus(frame.text, "hint");
  }
}

start().catch((error) => showStatus(String(error)));
