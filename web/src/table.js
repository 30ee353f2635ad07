// The table: the game's Scene (seats, the middle, rows of cards, lines), the member's
// hand and exactly the moves their view lists.
import { $, backsEl, cardEl, el, faceEl, plain, renderPanel, showStatus } from "./dom.js";
import { send, state } from "./session.js";

// A card with more moves than this (an opening lead: each trump and call) offers them
// in a list rather than as buttons.
const MOST_BUTTONS = 6;
// A pointer moved this far (px) from where it went down drags the card, not taps it.
const DRAG_FROM = 8;

// What the page showed last: the middle's cards (a card new there arrives animated) of
// which table, and the turn clock's ticking.
const shown = { table: null, centre: [], ticking: null };

export function render(view) {
  document.documentElement.lang = view.language || "";
  document.documentElement.dir = view.dir || "ltr";
  const scene = view.scene;
  $("title").textContent = scene ? scene.title : view.title || "";
  $("lines").textContent = scene ? scene.lines.join("\n") : "";
  const mine = scene && view.seat !== null && view.seat !== undefined
    ? scene.seats[view.seat] : null;
  document.body.classList.toggle("my-turn", Boolean(mine && mine.to_act));
  document.body.classList.toggle("watching", view.seat === null || view.seat === undefined);
  renderSeats(view);
  renderClock(view);
  renderTrick(view);
  renderGroups(scene);
  const moves = movesByCard(view);
  renderActions(view);
  renderMine(mine, moves);
  renderHand(view.hand || [], moves);
  renderPanel($("final"), view.final);
  $("rematch").textContent = view.rematch ? view.rematch.line : "";
  renderPanel($("panel"), view.panel);
  delete document.body.dataset.home;
  document.body.dataset.version = String(view.version); // what the page shows now
}

// The seats, from the one after the member's round to the member's own (last): the
// others across the table, the member nearest their hand.
function renderSeats(view) {
  const seats = $("seats");
  seats.replaceChildren();
  const all = view.scene ? view.scene.seats : [];
  const me = typeof view.seat === "number" ? view.seat : -1;
  const order = all.map((_, i) => (me + 1 + i) % all.length);
  for (const index of order) {
    const seat = all[index];
    const box = el("div", "seat");
    if (seat.to_act) box.classList.add("to-act");
    if (index === me) box.classList.add("me");
    const who = el("div", "who");
    who.append(faceEl(seat.name, (view.people || [])[index] || {}), el("b", "", seat.name));
    box.append(who);
    const lines = el("span", "lines", seat.lines.join(" · "));
    box.append(lines);
    if (seat.backs) lines.append(" ", backsEl(seat.backs));
    if (seat.cards.length && index !== me) { // the member's own row is above their hand
      const row = el("div", "row");
      seat.cards.forEach((card) => row.append(cardEl(card)));
      box.append(row);
    }
    box.dataset.seat = String(index);
    seats.append(box);
  }
}

// The turn's time left, on the seat to act, counted down by the page itself: the
// deadline and the bot's time now come with the view, so the page's own clock only
// measures what passed since.
function renderClock(view) {
  clearInterval(shown.ticking);
  shown.ticking = null;
  const clock = view.clock;
  if (!clock) return;
  const box = document.querySelector(`.seat[data-seat="${clock.seat}"]`);
  if (!box) return;
  const node = el("span", "clock");
  node.title = clock.label;
  node.setAttribute("aria-label", clock.label);
  box.querySelector(".who").append(node);
  const offset = clock.now - Date.now() / 1000;
  const tick = () => {
    const left = Math.max(0, Math.round(clock.deadline - (Date.now() / 1000 + offset)));
    node.dataset.left = String(left);
    node.textContent = `⏱ ${duration(left)}`;
    node.classList.toggle("short", left < 60);
  };
  tick();
  shown.ticking = setInterval(tick, 1000);
}

// Hours:minutes:seconds (digits only: the same in every language).
function duration(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function renderTrick(view) {
  const scene = view.scene;
  $("trick-label").textContent = scene ? scene.centre_label : "";
  const centre = $("centre");
  const played = scene ? scene.centre : [];
  centre.classList.toggle("pile", played.length > 0 && played.every((p) => p.seat < 0));
  // The cards still there since the last view of this table stay as they are (their
  // arrival is not played again); a card new in the middle arrives (app.css).
  const known = shown.table === view.table_id; // not the page's first view of it
  const before = known && centre.children.length === shown.centre.length ? shown.centre : [];
  shown.table = view.table_id;
  shown.centre = played.map((card) => `${card.seat}:${card.name}`);
  let kept = 0;
  while (kept < before.length && before[kept] === shown.centre[kept]) kept += 1;
  if (kept < before.length) kept = 0; // the middle was cleared or changed: drawn anew
  while (centre.children.length > kept) centre.lastChild.remove();
  for (const card of played.slice(kept)) {
    const box = el("div", "played");
    if (known && !before.includes(`${card.seat}:${card.name}`)) box.classList.add("arrive");
    box.append(cardEl(card));
    if (card.seat >= 0) box.append(el("span", "", scene.seats[card.seat].name));
    centre.append(box);
  }
}

function renderGroups(scene) {
  const groups = $("groups");
  groups.replaceChildren();
  for (const group of scene ? scene.groups : []) {
    const row = el("div", "group");
    row.append(el("span", "label", group.label));
    group.cards.forEach((card, i) => {
      const node = cardEl(card);
      if (group.marked === i) node.classList.add("marked"); // the last trick's taker
      row.append(node);
    });
    if (group.backs) row.append(backsEl(group.backs));
    groups.append(row);
  }
}

// Each card's own moves (playing it; a lead's trump and call), by the card's name.
function movesByCard(view) {
  const byCard = new Map();
  for (const action of view.actions || []) {
    if (!action.card) continue;
    if (!byCard.has(action.card)) byCard.set(action.card, []);
    byCard.get(action.card).push(action);
  }
  return byCard;
}

function renderActions(view) {
  const box = $("actions");
  box.replaceChildren();
  for (const action of view.actions || []) {
    if (action.card) continue; // a card's move: tap the card
    const button = el("button", "", action.label);
    button.onclick = () => send(JSON.parse(action.key));
    box.append(button);
  }
  for (const group of view.groups || []) {
    const button = el("button", "confirm", group.label);
    button.onclick = () => sendChosen(group);
    box.append(button);
  }
  if (view.seat_back) { // away: the AI plays the seat until the member is back
    const button = el("button", "seat-back", view.seat_back);
    button.onclick = () => send(null, "back");
    box.append(button);
  }
  for (const type of ["hint", "claim"]) { // the platform's, as the panel offers them
    if (!view[type]) continue;
    const button = el("button", "platform", view[type]);
    button.onclick = () => send(null, type);
    box.append(button);
  }
  if (view.rematch && view.rematch.can) {
    const button = el("button", "rematch", view.rematch.label);
    button.onclick = () => send(null, "rematch");
    box.append(button);
  }
  if (view.review) { // the deal last finished, face up (a frame of its own)
    const button = el("button", "platform review", view.review.label);
    button.onclick = () => send(null, "review");
    box.append(button);
  }
}

// The deal last finished, as the game words its review, over the table until closed.
export function renderReview(frame) {
  const box = $("review");
  renderPanel(box, frame.panel);
  const close = el("button", "close", frame.close);
  close.onclick = () => box.replaceChildren();
  box.prepend(close);
  close.focus();
}

// A move of several cards: the cards tapped, each row's (a swap gives hand cards for
// face-up ones); the backend checks the move is one of the member's legal ones.
function sendChosen(group) {
  const action = { action: group.action };
  for (const part of group.parts) {
    action[part.key] = part.cards.filter((name) => state.chosen.has(name));
  }
  if (!group.counts.includes(action[group.parts[0].key].length)) {
    showStatus(group.label);
    return;
  }
  send(action);
}

// A move of one card, from one row (a shedding game's play of a rank held once): the
// tap is the move, as a card's own.
function singleCardGroup(name) {
  return (state.view.groups || []).find((g) => g.parts.length === 1 && g.counts.length === 1
    && g.counts[0] === 1 && g.parts[0].cards.includes(name));
}

function choosable(view) {
  return new Set((view.groups || []).flatMap((g) => g.parts.flatMap((p) => p.cards)));
}

// The member's own face-up row (a shedding game's), tappable like the hand.
function renderMine(seat, moves) {
  const box = $("mine");
  box.replaceChildren();
  if (!seat || !seat.cards.length) return;
  const row = el("div", "cards");
  addTappable(row, seat.cards, moves);
  if (seat.backs) row.append(backsEl(seat.backs)); // the face-down cards under them
  box.append(row);
}

function renderHand(hand, moves) {
  const box = $("hand");
  box.replaceChildren();
  addTappable(box, hand, moves);
}

function addTappable(box, cards, moves) {
  const chosenable = choosable(state.view);
  for (const card of cards) {
    const node = cardEl(card);
    const own = moves.get(card.name);
    if (own || chosenable.has(card.name)) node.classList.add("legal");
    node.onclick = () => {
      if (node.dataset.dragged) { delete node.dataset.dragged; return; } // a drag's end
      tapCard(card, node, own);
    };
    if (node.classList.contains("legal")) dragToPlay(node, () => tapCard(card, node, own));
    box.append(node);
  }
}

function tapCard(card, node, moves) {
  if (moves && moves.length === 1) { send(JSON.parse(moves[0].key)); return; }
  if (moves) {
    for (const other of document.querySelectorAll(".card.chosen")) other.classList.remove("chosen");
    node.classList.add("chosen");
    chooseAmong(card, moves);
    return;
  }
  const single = singleCardGroup(card.name);
  if (single) { state.chosen = new Set([card.name]); sendChosen(single); return; }
  if (node.classList.contains("legal")) {
    if (state.chosen.has(card.name)) state.chosen.delete(card.name);
    else state.chosen.add(card.name);
    node.classList.toggle("chosen");
  }
}

// One card, several moves (an opening lead that names a trump and calls a card): its
// moves as buttons, or as a list when there are many.
function chooseAmong(card, moves) {
  const box = $("actions");
  box.replaceChildren();
  if (moves.length <= MOST_BUTTONS) {
    for (const move of moves) {
      const button = el("button", "", move.label);
      button.onclick = () => send(JSON.parse(move.key));
      box.append(button);
    }
    return;
  }
  const list = el("select", "moves");
  const first = el("option", "", `${card.label} …`);
  first.value = "";
  list.append(first);
  for (const move of moves) {
    const option = el("option", "", move.label);
    option.value = move.key;
    list.append(option);
  }
  list.onchange = () => { if (list.value) send(JSON.parse(list.value)); };
  box.append(list);
  list.focus();
}

// Drag a card onto the middle of the table: the same as tapping it. A drag that ends
// anywhere else puts the card back and does nothing.
function dragToPlay(node, play) {
  node.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    const x0 = down.clientX;
    const y0 = down.clientY;
    let dragging = false;
    const move = (event) => {
      const dx = event.clientX - x0;
      const dy = event.clientY - y0;
      if (!dragging && Math.hypot(dx, dy) < DRAG_FROM) return;
      if (!dragging) {
        dragging = true;
        node.setPointerCapture(down.pointerId);
        node.classList.add("dragging");
      }
      node.style.transform = `translate(${dx}px, ${dy}px)`;
    };
    const up = (event) => {
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", up);
      if (!dragging) return; // a tap: the click plays it
      node.dataset.dragged = "1";
      node.classList.remove("dragging");
      node.style.transform = "";
      const at = $("trick").getBoundingClientRect();
      if (event.type === "pointerup" && event.clientX >= at.left && event.clientX <= at.right
          && event.clientY >= at.top && event.clientY <= at.bottom) play();
    };
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", up);
    node.addEventListener("pointercancel", up);
  });
}
