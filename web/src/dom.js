// The page's building blocks: elements, cards, the game's panels, the status line.

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function cardEl(card) {
  const node = el("span", "card", card.label);
  if (/[♥♦]/.test(card.label)) node.classList.add("red");
  node.dataset.card = card.name;
  return node;
}

// A seat's face: its member's avatar (served by the backend under the page's own
// origin), else the name's first letter; an AI's seat a robot.
export function faceEl(name, person) {
  const node = el("span", "face");
  const initial = () => {
    node.replaceChildren();
    node.textContent = person.ai ? "🤖" : (Array.from(name.trim())[0] || "?").toUpperCase();
  };
  if (person.avatar) {
    const img = el("img");
    img.alt = "";
    img.src = person.avatar;
    img.onerror = initial; // none to be had: the initial
    node.append(img);
  } else {
    initial();
  }
  if (person.ai) node.classList.add("ai");
  return node;
}

export function backsEl(count) {
  const node = el("span", "backs", `🂠 ${count}`);
  node.dataset.backs = String(count);
  return node;
}

// A panel of the game's words (the seat's own; a finished game's standings).
export function renderPanel(box, panel) {
  box.replaceChildren();
  if (!panel) return;
  box.append(el("h2", "", plain(panel.title)));
  if (panel.description) box.append(el("div", "", plain(panel.description)));
  for (const field of panel.fields) box.append(el("div", "", `${plain(field.name)}: ${plain(field.value)}`));
}

// The game's panels are written for Discord's Markdown: shown here as plain text.
export function plain(text) { return String(text).replace(/\*\*|__|~~|`/g, "").replace(/\\([\\*_~`|>])/g, "$1"); }

export function showStatus(text, kind = "") {
  $("status").textContent = text || "";
  $("status").className = kind;
}
