// The speaker notes window. From the lesson window: BroadcastChannel when both are
// served, or postMessage from the window that opened this one (the workshop bundle,
// opened from a file).
const show = (data) => {
  let m;
  try { m = JSON.parse(data); } catch { return; }
  for (const k of ["lesson", "label", "title", "narration", "notes", "answer"]) {
    document.getElementById(k).textContent = (m && m[k]) || "";
  }
};
new BroadcastChannel("ddlscope-lesson").onmessage = (e) => show(e.data);
window.addEventListener("message", (e) => {
  if (e.source === window.opener && typeof e.data === "string") show(e.data);
});
