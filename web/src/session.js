// The page's one connection to the backend, and what it last showed.

export const state = {
  token: "", instance: "", locale: "", ws: null, view: null, chosen: new Set(), tries: 0,
};

// A frame to the backend: a move at the version of the view it was chosen in.
export function send(action, type = "act") {
  if (type === "table" && state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify({ type }));
    return;
  }
  const view = state.view;
  if (!view || !state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  const frame = { type, version: view.version };
  if (type === "act") frame.action = action;
  state.ws.send(JSON.stringify(frame));
}
