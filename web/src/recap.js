import { el, plain } from "./dom.js";

// "While you were away": what others did at the table since the member's last move or
// last look, sent with the first view of a table; shown on top until the member
// dismisses it or moves.
export function showRecap(recap) {
  hideRecap();
  const box = el("section", "recap");
  box.id = "recap";
  box.setAttribute("role", "note");
  box.append(el("h2", "", recap.title));
  for (const line of recap.lines) box.append(el("p", "", plain(line)));
  const close = el("button", "dismiss", recap.dismiss);
  close.onclick = hideRecap;
  box.append(close);
  document.getElementById("app").prepend(box);
}

export function hideRecap() {
  const box = document.getElementById("recap");
  if (box) box.remove();
}

// Whether the member moved between two views: it was their turn, and the table went on.
export function movedSince(before, now) {
  if (!before || before.table_id !== now.table_id || now.version <= before.version) return false;
  const seat = before.seat;
  return Boolean(before.scene && seat !== null && seat !== undefined
    && before.scene.seats[seat] && before.scene.seats[seat].to_act);
}
