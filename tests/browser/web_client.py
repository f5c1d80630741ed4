#!/usr/bin/env python3
"""Drives the web client of `overlord serve` in headless Chromium.

    web_client.py <overlord binary> <game dir> <faction> <password> <browser>

A player logs in, reads the report (units, map), types a wrong order into the
editor and sees the checker's error with its line, fixes it, sees no error,
submits, and the order file is found taken in. The browser is driven through the
DevTools protocol over a pipe (--remote-debugging-pipe: commands on fd 3, answers
on fd 4, each a JSON message ending with a NUL byte), so nothing but Python's
standard library and the browser is needed. Exits non-zero, saying why, on the
first failed step.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

TIMEOUT = 30.0


def fail(why):
    print("FAILED: " + why, file=sys.stderr)
    sys.exit(1)


class Browser:
    def __init__(self, binary):
        self.to_r, self.to_w = os.pipe()
        self.from_r, self.from_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="overlord-browser-")
        args = [
            binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-extensions", "--disable-background-networking",
            "--user-data-dir=" + self.profile, "--remote-debugging-pipe", "about:blank",
        ]
        cmd = 'exec "$@" 3<&%d 4>&%d' % (self.to_r, self.from_w)
        self.proc = subprocess.Popen(["sh", "-c", cmd, "sh"] + args, pass_fds=(self.to_r, self.from_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(self.to_r)
        os.close(self.from_w)
        self.buf = b""
        self.next_id = 0
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        # A phone's screen.
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True})

    def call(self, method, params=None, quiet=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self.next_id:
                    if "error" in answer:
                        if quiet:
                            return None
                        fail("%s: %s" % (method, answer["error"]))
                    return answer.get("result", {})
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                fail("the browser closed its pipe")
            self.buf += chunk
        fail("no answer to " + method)

    def js(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in r:
            fail("script error: %s in %s" % (r["exceptionDetails"], expression))
        return r["result"].get("value")

    def wait(self, expression, what):
        # While a page loads, its document may have no body yet, or the context
        # may go away under the call: that is "not yet", not a failure.
        guarded = "(function () { try { return (%s); } catch (e) { return null; } })()" % expression
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            r = self.call("Runtime.evaluate", {"expression": guarded, "returnByValue": True}, quiet=True)
            value = r and "exceptionDetails" not in r and r["result"].get("value")
            if value:
                return value
            time.sleep(0.1)
        page = self.call("Runtime.evaluate", {"expression": "document.body && document.body.innerText",
                                                "returnByValue": True}, quiet=True)
        fail("waited in vain for " + what + "; the page says:\n" + str(page)[:3000])

    def go(self, url):
        self.call("Page.navigate", {"url": url})
        self.wait("document.readyState === 'complete' && location.href === %s" % json.dumps(url), "page " + url)

    def shot(self, name):
        """With OVERLORD_SCREENSHOTS=<dir>, saves the page as <dir>/<name>.png."""
        where = os.environ.get("OVERLORD_SCREENSHOTS")
        if not where:
            return
        import base64
        os.makedirs(where, exist_ok=True)
        png = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(os.path.join(where, name + ".png"), "wb") as f:
            f.write(base64.b64decode(png))

    def close(self):
        try:
            self.call("Browser.close")
        except SystemExit:
            pass
        self.proc.wait(timeout=TIMEOUT)


def main():
    overlord, game, faction, password, binary = sys.argv[1:6]
    server = subprocess.Popen([overlord, "serve", game, "--addr", "127.0.0.1:0", "--threads", "2"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        m = re.search(r"http://[0-9.:]+/", line)
        if not m:
            fail("serve printed no address: " + line)
        base = m.group(0)
        b = Browser(binary)
        try:
            run(b, base, game, faction, password)
        finally:
            b.close()
    finally:
        server.kill()
        server.wait()
    print("ok: logged in, read the report, saw the error at its line, fixed it, submitted")


def run(b, base, game, faction, password):
    # Log in: a wrong password is refused, the right one opens the report.
    b.go(base)
    login = """(function (f, p) {
        document.getElementById('faction').value = f;
        document.getElementById('password').value = p;
        document.getElementById('login').click();
        return true; })(%s, %s)"""
    b.js(login % (json.dumps(faction), json.dumps("not-" + password)))
    b.wait("document.body.innerText.includes('Wrong faction or password')", "the refusal")
    b.js(login % (json.dumps(faction), json.dumps(password)))
    b.wait("location.pathname === '/report' && document.readyState === 'complete'", "the report")
    units = b.js("document.querySelectorAll('#units article').length")
    if not units:
        fail("the report lists no unit")
    if not b.js("!!document.querySelector('#map svg polygon')"):
        fail("the report has no map")
    b.shot("report")
    title = b.js("document.title")
    if "[%s]" % faction not in title:
        fail("the report is not %s's: %s" % (faction, title))

    # The editor: the template, checked on opening.
    b.go(base + "orders")
    b.wait("document.getElementById('status').textContent === 'no errors'", "the first check")
    text = b.js("document.getElementById('orders').value")
    lines = text.split("\n")
    unit_line = next(i for i, l in enumerate(lines) if l.startswith("UNIT "))
    # Type a wrong order below the first unit: line unit_line + 2 (1-based).
    bad_line = unit_line + 2
    offset = sum(len(l) + 1 for l in lines[: unit_line + 1])
    b.js("(function () { const a = document.getElementById('orders'); a.focus(); a.setSelectionRange(%d, %d); return true; })()"
         % (offset, offset))
    b.call("Input.insertText", {"text": "FROBNICATE 12\n"})
    b.wait("document.getElementById('status').textContent === 'errors: see below'", "the error")
    errors = b.js("Array.from(document.querySelectorAll('#check .error')).map(e => e.textContent)")
    b.shot("editor-error")
    if not any(("line %d:" % bad_line) in e for e in errors):
        fail("no error at line %d: %s" % (bad_line, errors))

    # Fix it: the wrong line becomes a comment.
    b.js("(function () { const a = document.getElementById('orders'); a.focus(); a.setSelectionRange(%d, %d); return true; })()"
         % (offset, offset + len("FROBNICATE 12")))
    b.call("Input.insertText", {"text": "# frobnicate later"})
    b.wait("document.getElementById('status').textContent === 'no errors'", "no error after the fix")

    # Submit, and find the file taken in.
    b.js("document.getElementById('submit').click(), true")
    b.wait("document.getElementById('status').textContent === 'taken in'", "the orders taken in")
    b.shot("editor-taken-in")
    turns = sorted(d for d in os.listdir(os.path.join(game, "orders")) if d.isdigit())
    stored = os.path.join(game, "orders", turns[-1], faction + ".txt")
    if not os.path.isfile(stored):
        fail("no order file at " + stored)
    with open(stored) as f:
        body = f.read()
    if "# frobnicate later" not in body:
        fail("the stored file is not the one written: " + body[:500])
    if password in body:
        fail("the password was stored in the order file")


if __name__ == "__main__":
    main()
