// The order editor of `overlord serve`: checks the orders as they are typed (half
// a second after the last key), shows what the checker says line by line, and
// submits them.
"use strict";
(function () {
  const area = document.getElementById("orders");
  const out = document.getElementById("check");
  const status = document.getElementById("status");
  const button = document.getElementById("submit");
  const csrf = area.dataset.csrf;
  let timer = null;
  let asked = 0;

  function show(answer) {
    out.textContent = "";
    for (const line of answer.lines) {
      const div = document.createElement("div");
      div.textContent = line.text;
      if (line.error) div.className = "error";
      out.appendChild(div);
    }
  }

  async function send(path) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "text/plain; charset=utf-8", "X-Csrf-Token": csrf },
      body: area.value,
      credentials: "same-origin",
    });
    if (!response.ok) throw new Error(await response.text());
    return response.json();
  }

  async function check() {
    const mine = ++asked;
    status.textContent = "checking…";
    try {
      const answer = await send("/check");
      if (mine !== asked) return; // a later check is on its way
      show(answer);
      status.textContent = answer.failed ? "errors: see below" : "no errors";
    } catch (e) {
      if (mine === asked) status.textContent = "not checked: " + e.message;
    }
  }

  area.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 500);
  });

  button.addEventListener("click", async function () {
    clearTimeout(timer);
    asked++;
    status.textContent = "submitting…";
    try {
      const answer = await send("/submit");
      show(answer);
      status.textContent = answer.stored ? "taken in" : "not taken in: see below";
    } catch (e) {
      status.textContent = "not submitted: " + e.message;
    }
  });

  check();
})();
