// The page's live update: after each change that the server's event stream
// announces, fetch the page again and show its <main>, keeping open the
// details that were open. The page is whole without this script.
"use strict";

(() => {
  const main = document.getElementById("state");
  if (!main || !window.EventSource || !window.fetch || !window.DOMParser) {
    return;
  }
  // One fetch at a time; a change during one asks for another after it.
  let fetching = false;
  let again = false;
  let timer = 0;

  const refresh = async () => {
    timer = 0;
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const resp = await fetch("./", { cache: "no-store", headers: { Accept: "text/html" } });
      if (resp.ok) {
        const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
        const next = doc.getElementById("state");
        if (next) {
          const open = new Set(Array.from(main.querySelectorAll("details[open]"), (d) => d.dataset.key));
          main.replaceChildren(...next.childNodes);
          for (const d of main.querySelectorAll("details[data-key]")) {
            d.open = open.has(d.dataset.key);
          }
        }
      }
    } catch {
      // The server is away; the stream says when it is back.
    }
    fetching = false;
    if (again) {
      again = false;
      schedule();
    }
  };

  // schedule fetches the page soon, at most a few times a second.
  const schedule = () => {
    if (!timer) {
      timer = setTimeout(refresh, 100);
    }
  };

  let opened = false;
  const events = new EventSource("events");
  events.addEventListener("change", schedule);
  // A stream opened again may have missed changes while it was away.
  events.addEventListener("open", () => {
    if (opened) {
      schedule();
    }
    opened = true;
  });
})();
