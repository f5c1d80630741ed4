//! The web client (`overlord serve`), whole process: plain HTTP requests for what a
//! server must refuse, and a real browser (headless Chromium, driven by
//! `tests/browser/web_client.py`) for what a player does.

mod common;

use common::{bin, root};
use overlord::core::game::GameDir;
use overlord::systems::overlord::Overlord;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

/// `overlord serve` of a new alpha game in `dir`: the process and its address.
struct Served {
    child: Child,
    addr: String,
    game: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path) -> Served {
    let game = dir.join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &game).unwrap();
    let mut child = bin()
        .args(["serve"])
        .arg(&game)
        .args(["--addr", "127.0.0.1:0", "--threads", "2"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).unwrap().trim().trim_end_matches('/').to_string();
    Served { child, addr, game }
}

/// One request: the status, the headers (lower-case names) and the body.
fn ask(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    let mut req =
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers =
        lines.filter_map(|l| l.split_once(": ")).map(|(k, v)| (k.to_ascii_lowercase(), v.to_string())).collect();
    (status, headers, body.to_string())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// Logs in: the session cookie.
fn login(addr: &str, faction: &str, password: &str) -> Result<String, u16> {
    let form = format!("faction={faction}&password={password}");
    let (status, headers, _) =
        ask(addr, "POST", "/login", &[("Content-Type", "application/x-www-form-urlencoded")], &form);
    match header(&headers, "set-cookie") {
        Some(c) if status == 303 => Ok(c.split(';').next().unwrap().to_string()),
        _ => Err(status),
    }
}

#[test]
fn a_faction_reaches_only_its_own_pages_and_changes_nothing_without_its_token() {
    let d = tempfile::tempdir().unwrap();
    let s = serve(d.path());
    let a = s.addr.as_str();
    // Nothing without a session: every page leads to the login.
    for path in ["/report", "/orders", "/report?turn=0"] {
        let (status, h, _) = ask(a, "GET", path, &[], "");
        assert_eq!((status, header(&h, "location")), (303, Some("/")), "{path}");
    }
    let (status, _, _) = ask(a, "POST", "/check", &[], "GAME f02 pswd2\nEND\n");
    assert_eq!(status, 303);
    let cookie = login(a, "f02", "pswd2").unwrap();
    let with = [("Cookie", cookie.as_str())];
    let (status, h, page) = ask(a, "GET", "/report", &with, "");
    assert_eq!(status, 200);
    assert!(page.contains("<title>alpha Report for Turn 0 for") && page.contains("[f02]</title>"), "{page}");
    assert!(page.contains("<div class=\"map\">"));
    assert!(header(&h, "content-security-policy").unwrap().contains("default-src 'none'"));
    assert_eq!(header(&h, "cache-control"), Some("no-store"));
    // No address names another faction: the session's is the only one.
    for path in ["/report?faction=f05", "/report?turn=0&faction=f05", "/report?turn=7", "/report?turn=x", "/../f05"] {
        let (status, _, page) = ask(a, "GET", path, &with, "");
        assert!(!page.contains("[f05]</title>"), "{path}");
        assert!(status == 200 || status == 404, "{path}: {status}");
    }
    // Changes need the page's token.
    let (status, _, _) = ask(a, "POST", "/submit", &with, "GAME f02 <password> alpha\nEND\n");
    assert_eq!(status, 403);
    let (_, _, editor) = ask(a, "GET", "/orders", &with, "");
    let csrf = editor.split("data-csrf=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    assert!(editor.contains("GAME f02 &lt;password&gt; alpha"), "the template, password left out");
    let with_token = [("Cookie", cookie.as_str()), ("X-Csrf-Token", csrf.as_str())];
    // The check is `overlord check`'s, with line numbers; the session's password
    // stands for the placeholder, for its own faction only.
    let (status, _, json) = ask(a, "POST", "/check", &with_token, "GAME f02 <password> alpha\nUNIT U201\nFROB\nEND\n");
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["failed"], true);
    let lines: Vec<(bool, String)> = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["error"].as_bool().unwrap(), l["text"].as_str().unwrap().to_string()))
        .collect();
    assert!(lines.contains(&(true, "line 3: error: 'FROB' is not an order".into())), "{lines:?}");
    let (_, _, json) = ask(a, "POST", "/check", &with_token, "GAME f05 <password> alpha\nEND\n");
    assert!(json.contains("\"error\":true") && !json.contains("orders of f05"), "{json}");
    // Submitted: stored as `submit` stores it, the password not written.
    let (_, _, json) = ask(a, "POST", "/submit", &with_token, "GAME f02 <password> alpha\nUNIT U201\n# soon\nEND\n");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stored"], true, "{json}");
    let stored = std::fs::read_to_string(s.game.join("orders/0001/f02.txt")).unwrap();
    assert!(stored.contains("# soon") && !stored.contains("pswd2"), "{stored}");
    // The editor now opens on what was submitted.
    let (_, _, editor) = ask(a, "GET", "/orders", &with, "");
    assert!(editor.contains("# soon") && editor.contains("GAME f02 &lt;password&gt; alpha"), "{editor}");
    // Logged out: the cookie opens nothing.
    let form = format!("csrf={csrf}");
    let (status, _, _) = ask(a, "POST", "/logout", &with, &form);
    assert_eq!(status, 303);
    let (status, _, _) = ask(a, "GET", "/report", &with, "");
    assert_eq!(status, 303);
}

#[test]
fn failed_logins_are_limited_per_address() {
    let d = tempfile::tempdir().unwrap();
    let s = serve(d.path());
    for _ in 0..5 {
        assert_eq!(login(&s.addr, "f02", "wrong"), Err(401));
    }
    // Even the right password waits now.
    assert_eq!(login(&s.addr, "f02", "pswd2"), Err(429));
    assert_eq!(login(&s.addr, "f03", "pswd3"), Err(429));
}

#[test]
fn a_player_logs_in_reads_checks_fixes_and_submits_in_a_real_browser() {
    let browser = ["chromium-headless-shell", "chromium", "chromium-browser"].into_iter().find(|b| {
        std::process::Command::new(b).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
    });
    let Some(browser) = browser else {
        // CI sets OVERLORD_BROWSER_TESTS=1 and installs the browser (.ci/run).
        assert!(
            std::env::var_os("OVERLORD_BROWSER_TESTS").is_none(),
            "OVERLORD_BROWSER_TESTS is set but no headless Chromium is installed (apt-get install chromium-headless-shell)"
        );
        eprintln!("skipped: no headless Chromium (apt-get install chromium-headless-shell)");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let game = d.path().join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &game).unwrap();
    let o = std::process::Command::new("python3")
        .arg(root().join("tests/browser/web_client.py"))
        .arg(env!("CARGO_BIN_EXE_overlord"))
        .arg(&game)
        .args(["f02", "pswd2", browser])
        .output()
        .unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("ok: logged in"), "{out}");
}
