// The speaker notes window. From the lesson window: BroadcastChannel when both are
// served, or postMessage from the window that opened this one (the workshop bundle,
// opened from a file). The step's texts come rendered as HTML by the player
// (model/lesson_notes.rs, every piece of text escaped there). On opening it says
// hello, and the player answers with the step it shows.
const HELLO = "ddlscope-notes-hello";
const $ = (id) => document.getElementById(id);
const timer = { lesson: null, start: 0, total: null };

const clock = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
const tick = () => {
  if (timer.lesson === null) return;
  const spent = (Date.now() - timer.start) / 1000;
  $("timer").textContent = timer.total ? `${clock(spent)} / ${clock(timer.total)}` : clock(spent);
  $("timer").classList.toggle("over", timer.total !== null && spent > timer.total);
};

const show = (data) => {
  let m;
  try { m = JSON.parse(data); } catch { return; }
  if (!m || typeof m !== "object" || !m.title) return;
  if (m.id !== timer.lesson) Object.assign(timer, { lesson: m.id, start: Date.now(), total: m.duration_s ?? null });
  $("lesson").textContent = m.duration ? `${m.lesson} (${m.duration})` : m.lesson;
  $("label").textContent = m.label ?? "";
  $("title").textContent = m.title;
  for (const k of ["narration", "notes", "question", "answer"]) $(k).innerHTML = m[k] ?? "";
  $("revealed").textContent = m.revealed ?? "";
  $("next").textContent = m.next ?? "";
  $("notes-part").hidden = !m.notes;
  $("question-part").hidden = !m.question;
  $("next-part").hidden = !m.next;
  tick();
};

const channel = new BroadcastChannel("ddlscope-lesson");
channel.onmessage = (e) => show(e.data);
window.addEventListener("message", (e) => {
  if (e.source === window.opener && typeof e.data === "string") show(e.data);
});
$("timer").addEventListener("click", () => { timer.start = Date.now(); tick(); });
setInterval(tick, 1000);
channel.postMessage(HELLO);
if (window.opener) window.opener.postMessage(HELLO, "*");
