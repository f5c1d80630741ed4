//! The web client (`overlord serve <game> [--addr 127.0.0.1:PORT]`): a faction
//! logs in with its id and password, reads its reports of this turn and earlier
//! ones (the HTML page, map inline), and writes its orders in an editor that checks
//! them as they are typed, with the same checker and line numbers as `overlord
//! check`, and submits them as `overlord submit` does.
//!
//! Small on purpose: a blocking HTTP/1.1 server ([`tiny_http`]) on a few threads,
//! pages made on the server, and one short script for the editor
//! (`editor.js`). What a session may reach is its own faction's, always named by
//! the session, never by the address asked for. Failed logins are limited per
//! address and per faction ([`sessions`]). Every request that changes something
//! carries the session's token; cookies are `HttpOnly` and `SameSite=Strict`; the
//! pages forbid outside resources (`Content-Security-Policy`). Serve it behind a
//! TLS proxy when it leaves the machine: it speaks plain HTTP. The choices are in
//! `docs/web.md`.

pub mod sessions;

use crate::core::game::{Answer, GameDir, GameError, ReportKind, describe};
use crate::core::html::{Page, Section, escape};
use crate::core::map::Atlas;
use crate::systems::{Commands, Pages, report_page};
use sessions::{Session, Sessions};
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The editor's script.
const EDITOR_JS: &str = include_str!("editor.js");

/// The most a request's body may hold.
const BODY_LIMIT: u64 = 1 << 20;

/// The cookie holding a session's token.
const COOKIE: &str = "overlord_session";

/// A game served.
pub struct Server {
    system: &'static dyn Commands,
    game: GameDir,
    pages: Box<dyn Pages>,
    /// The map of the latest turn drawn: its turn and atlas.
    atlas: Mutex<Option<(u32, Arc<dyn Atlas>)>>,
    sessions: Mutex<Sessions>,
}

/// What a request gets back.
struct Reply {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
    headers: Vec<(&'static str, String)>,
}

impl Reply {
    fn html(status: u16, page: String) -> Reply {
        Reply { status, kind: "text/html; charset=utf-8", body: page.into_bytes(), headers: Vec::new() }
    }
    fn json(status: u16, value: &serde_json::Value) -> Reply {
        Reply { status, kind: "application/json", body: value.to_string().into_bytes(), headers: Vec::new() }
    }
    fn text(status: u16, text: &str) -> Reply {
        Reply { status, kind: "text/plain; charset=utf-8", body: text.as_bytes().to_vec(), headers: Vec::new() }
    }
    fn redirect(to: &str) -> Reply {
        Reply { status: 303, kind: "text/plain", body: Vec::new(), headers: vec![("Location", to.to_string())] }
    }
}

/// A request, read.
struct Asked<'a> {
    method: &'a tiny_http::Method,
    path: &'a str,
    query: &'a str,
    body: String,
    address: std::net::IpAddr,
    token: Option<String>,
    csrf: Option<String>,
}

impl Server {
    /// A server of `game`: its rule set loaded for the pages.
    pub fn new(system: &'static dyn Commands, game: GameDir) -> Result<Server, GameError> {
        let pages = system.pages(&game)?;
        Ok(Server { system, game, pages, atlas: Mutex::new(None), sessions: Mutex::new(Sessions::default()) })
    }

    /// Serves on `addr` with `threads` threads until the process ends; `ready` is
    /// told the address bound (a port 0 is chosen by the system).
    pub fn run(self, addr: &str, threads: usize, ready: impl FnOnce(std::net::SocketAddr)) -> Result<(), GameError> {
        let http = tiny_http::Server::http(addr)
            .map_err(|e| GameError { path: self.game.root().to_path_buf(), message: format!("{addr}: {e}") })?;
        let bound = http.server_addr().to_ip().ok_or_else(|| GameError {
            path: self.game.root().to_path_buf(),
            message: format!("{addr}: not an IP address"),
        })?;
        ready(bound);
        let (http, me) = (Arc::new(http), Arc::new(self));
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (http, me) = (http.clone(), me.clone());
                std::thread::spawn(move || {
                    for request in http.incoming_requests() {
                        me.answer(request);
                    }
                })
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
        Ok(())
    }

    fn answer(&self, mut request: tiny_http::Request) {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let header = |name: &'static str| {
            request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str().to_string())
        };
        let token = header("Cookie").and_then(|c| {
            c.split(';')
                .filter_map(|kv| kv.trim().split_once('='))
                .find(|(k, _)| *k == COOKIE)
                .map(|(_, v)| v.to_string())
        });
        let csrf = header("X-Csrf-Token");
        let address = request.remote_addr().map_or(std::net::IpAddr::from([0, 0, 0, 0]), |a| a.ip());
        let mut bytes = Vec::new();
        let too_big = request.as_reader().take(BODY_LIMIT + 1).read_to_end(&mut bytes).is_err()
            || bytes.len() as u64 > BODY_LIMIT;
        let method = request.method().clone();
        let reply = if too_big {
            Reply::text(413, "too large")
        } else {
            let body = String::from_utf8_lossy(&bytes).into_owned();
            let asked = Asked { method: &method, path, query, body, address, token, csrf };
            self.route(&asked)
        };
        let mut response = tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
        let mut headers = vec![
            ("Content-Type", reply.kind.to_string()),
            ("Cache-Control", "no-store".into()),
            ("X-Content-Type-Options", "nosniff".into()),
            ("Referrer-Policy", "no-referrer".into()),
            ("X-Frame-Options", "DENY".into()),
            (
                "Content-Security-Policy",
                "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; \
                 img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
                    .into(),
            ),
        ];
        headers.extend(reply.headers);
        for (k, v) in headers {
            if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
                response.add_header(h);
            }
        }
        let _ = request.respond(response);
    }

    fn route(&self, a: &Asked) -> Reply {
        use tiny_http::Method::{Get, Post};
        let now = Instant::now();
        let session = a.token.as_deref().and_then(|t| self.sessions.lock().ok()?.get(t, now));
        match (a.method, a.path, session) {
            (Get, "/editor.js", _) => {
                Reply { status: 200, kind: "text/javascript", body: EDITOR_JS.as_bytes().to_vec(), headers: Vec::new() }
            }
            (Post, "/login", _) => self.login(a, now),
            (Get, "/", None) => Reply::html(200, login_page("")),
            (Get, "/", Some(_)) => Reply::redirect("/report"),
            (_, _, None) => Reply::redirect("/"),
            (Get, "/report", Some(s)) => self.report(&s, a.query),
            (Get, "/orders", Some(s)) => self.orders(&s),
            (Post, _, Some(s))
                if a.csrf.clone().or_else(|| form(&a.body).remove("csrf")).as_deref() != Some(&s.csrf) =>
            {
                Reply::text(403, "the page is out of date: load it again")
            }
            (Post, "/check", Some(s)) => self.take(&s, &a.body, false),
            (Post, "/submit", Some(s)) => self.take(&s, &a.body, true),
            (Post, "/logout", Some(_)) => {
                if let (Some(t), Ok(mut sessions)) = (a.token.as_deref(), self.sessions.lock()) {
                    sessions.close(t);
                }
                let mut r = Reply::redirect("/");
                r.headers.push(("Set-Cookie", format!("{COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict")));
                r
            }
            _ => Reply::text(404, "not found"),
        }
    }

    fn login(&self, a: &Asked, now: Instant) -> Reply {
        let form = form(&a.body);
        let (faction, password) =
            (form.get("faction").map_or("", |s| s.trim()), form.get("password").map_or("", |s| s.as_str()));
        let may = self.sessions.lock().is_ok_and(|s| s.may_try(a.address, faction, now));
        if !may {
            return Reply::html(429, login_page("Too many failed logins: wait a few minutes."));
        }
        let found = self.game.current_turn().and_then(|t| self.system.faction(&self.game, t, faction));
        let record = match found {
            Ok(Some(f)) if crate::core::secret::verify(&f.password, password) => f,
            Ok(_) => {
                if let Ok(mut s) = self.sessions.lock() {
                    s.failed(a.address, faction, now);
                }
                return Reply::html(401, login_page("Wrong faction or password."));
            }
            Err(e) => return Reply::html(500, login_page(&e.to_string())),
        };
        let token = match self.sessions.lock().map(|mut s| s.open(&record.id, password, now)) {
            Ok(Ok(t)) => t,
            _ => return Reply::html(500, login_page("no session could be opened")),
        };
        let mut r = Reply::redirect("/report");
        r.headers.push(("Set-Cookie", format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict")));
        r
    }

    /// The atlas of `turn`, drawn once and kept for the latest turn asked.
    fn atlas(&self, turn: u32) -> Result<Option<Arc<dyn Atlas>>, GameError> {
        if let Ok(held) = self.atlas.lock()
            && let Some((t, a)) = held.as_ref()
            && *t == turn
        {
            return Ok(Some(a.clone()));
        }
        let Some(atlas) = self.system.atlas(&self.game, turn)? else { return Ok(None) };
        let atlas: Arc<dyn Atlas> = Arc::from(atlas);
        if let Ok(mut held) = self.atlas.lock() {
            *held = Some((turn, atlas.clone()));
        }
        Ok(Some(atlas))
    }

    fn report(&self, s: &Session, query: &str) -> Reply {
        let current = match self.game.current_turn() {
            Ok(t) => t,
            Err(e) => return Reply::text(500, &e.to_string()),
        };
        let turn = match form(query).get("turn") {
            None => current,
            Some(t) => match t.parse::<u32>() {
                Ok(t) if t <= current => t,
                _ => return Reply::text(404, "no such turn"),
            },
        };
        let turns: Vec<u32> =
            (0..=current).filter(|&t| self.game.report_path(t, &s.faction, ReportKind::Json).is_file()).collect();
        if !turns.contains(&turn) {
            return Reply::text(404, "no report of that turn");
        }
        let page = self
            .atlas(turn)
            .and_then(|atlas| report_page(&self.game, self.pages.as_ref(), atlas.as_deref(), turn, &s.faction));
        match page {
            Ok(page) => Reply::html(200, with_bar(&page, &bar(s, turn, &turns, current))),
            Err(e) => Reply::text(500, &e.to_string()),
        }
    }

    fn orders(&self, s: &Session) -> Reply {
        let current = match self.game.current_turn() {
            Ok(t) => t,
            Err(e) => return Reply::text(500, &e.to_string()),
        };
        let pending = self.game.pending_dir(current + 1).join(format!("{}.txt", s.faction));
        let text = std::fs::read_to_string(&pending)
            .or_else(|_| {
                let template = self.game.read_report(current, &s.faction, ReportKind::Template)?;
                Ok::<_, GameError>(String::from_utf8_lossy(&template).into_owned())
            })
            .unwrap_or_default()
            .replace(crate::core::game::mail::HIDDEN, crate::core::secret::PLACEHOLDER);
        let editor = format!(
            "<p>Orders for turn {next}. Leave <code>&lt;password&gt;</code> as it is: the server puts your \
             password there. Each change is checked as you type.</p>\n\
             <textarea id=\"orders\" spellcheck=\"false\" autocapitalize=\"off\" autocomplete=\"off\" rows=\"24\" \
             data-csrf=\"{csrf}\">{text}</textarea>\n\
             <p><button id=\"submit\" type=\"button\">Submit</button> <span id=\"status\" role=\"status\"></span></p>\n\
             <h3>Check</h3>\n<pre id=\"check\" aria-live=\"polite\"></pre>\n\
             <script src=\"/editor.js\"></script>\n",
            next = current + 1,
            csrf = escape(&s.csrf),
            text = escape(&text),
        );
        let page = Page {
            title: format!("Orders of {} for turn {}", s.faction, current + 1),
            sections: vec![Section { id: "editor".into(), heading: "Orders".into(), body: editor }],
        }
        .render();
        let page = page.replace("</style>", "textarea{width:100%;font:.9rem/1.4 ui-monospace,monospace;padding:.4rem}.error{color:#c0392b;font-weight:bold}</style>");
        Reply::html(200, with_bar(&page, &bar(s, current, &[], current)))
    }

    /// Checks, or takes in, an order file written in the editor.
    fn take(&self, s: &Session, text: &str, store: bool) -> Reply {
        let text = with_password(text, &s.faction, &s.password);
        match self.system.take_mail(&self.game, &text, store) {
            Ok(answers) => {
                let d = describe(&answers, store);
                // A refused section, or a problem the checker calls an error.
                let lines: Vec<serde_json::Value> = d
                    .lines
                    .iter()
                    .map(|(refused, text)| {
                        let error = *refused || text.contains(": error: ");
                        serde_json::json!({"error": error, "text": text})
                    })
                    .collect();
                let stored = store && answers.iter().any(|a| matches!(a, Answer::Orders(_))) && !d.failed;
                Reply::json(200, &serde_json::json!({"failed": d.failed, "stored": stored, "lines": lines}))
            }
            Err(e) => Reply::json(
                200,
                &serde_json::json!({"failed": true, "stored": false,
                "lines": [{"error": true, "text": e.message}]}),
            ),
        }
    }
}

/// `text` with the password placeholder of each section header of `faction`
/// replaced by `password`; every other line, and the line count, as they were.
pub fn with_password(text: &str, faction: &str, password: &str) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let words: Vec<&str> = body.split_whitespace().collect();
        let keyword = words.iter().position(|w| {
            let w = w.trim_start_matches('#');
            ["GAME", "PRESS", "RUMOR", "REPORT"].iter().any(|k| w.eq_ignore_ascii_case(k))
        });
        let at = keyword.map(|k| if words[k].trim_start_matches('#').is_empty() { k + 1 } else { k });
        match at {
            Some(k)
                if words.get(k + 1).is_some_and(|f| f.eq_ignore_ascii_case(faction))
                    && words.get(k + 2).is_some_and(|p| *p == crate::core::secret::PLACEHOLDER)
                    && (k == 0 || words[..k].iter().all(|w| w.chars().all(|c| c == '#'))) =>
            {
                let replaced: Vec<&str> =
                    words.iter().enumerate().map(|(i, w)| if i == k + 2 { password } else { *w }).collect();
                out.push_str(&replaced.join(" "));
                out.push_str(&line[body.len()..]);
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// The links above every page of a session.
fn bar(s: &Session, turn: u32, turns: &[u32], current: u32) -> String {
    let mut o = format!(
        "<div style=\"display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;padding:.5rem 0;\
         border-bottom:1px solid #8884\"><strong>{}</strong><a href=\"/report\">Report</a><a href=\"/orders\">Orders \
         for turn {}</a>",
        escape(&s.faction),
        current + 1
    );
    if turns.len() > 1 {
        o.push_str("<span>Turns:");
        for t in turns {
            if *t == turn {
                o.push_str(&format!(" <strong>{t}</strong>"));
            } else {
                o.push_str(&format!(" <a href=\"/report?turn={t}\">{t}</a>"));
            }
        }
        o.push_str("</span>");
    }
    o.push_str(&format!(
        "<form method=\"post\" action=\"/logout\" style=\"margin:0\"><input type=\"hidden\" name=\"csrf\" \
         value=\"{}\"><button>Log out</button></form></div>\n",
        escape(&s.csrf)
    ));
    o
}

fn with_bar(page: &str, bar: &str) -> String {
    page.replacen("<body>\n", &format!("<body>\n{bar}"), 1)
}

fn login_page(message: &str) -> String {
    let note = if message.is_empty() {
        String::new()
    } else {
        format!("<p role=\"alert\"><strong>{}</strong></p>\n", escape(message))
    };
    Page {
        title: "Log in".into(),
        sections: vec![Section {
            id: "signin".into(),
            heading: "Your faction".into(),
            body: format!(
                "{note}<form method=\"post\" action=\"/login\">\n\
                 <p><label>Faction id<br><input name=\"faction\" id=\"faction\" autocapitalize=\"off\" required></label></p>\n\
                 <p><label>Password<br><input name=\"password\" id=\"password\" type=\"password\" required></label></p>\n\
                 <p><button id=\"login\">Log in</button></p>\n</form>\n"
            ),
        }],
    }
    .render()
}

/// The fields of a form (`a=1&b=2`, URL-encoded).
fn form(body: &str) -> std::collections::BTreeMap<String, String> {
    body.split('&').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (decode(k), decode(v))).collect()
}

/// A URL-encoded word, read (`+` is a space; a bad escape is kept as written).
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() => {
                let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::{decode, form, with_password};

    #[test]
    fn the_placeholder_of_the_sessions_own_headers_becomes_its_password_and_nothing_else_changes() {
        let text = "GAME f02 <password> alpha\r\nUNIT U1\nSAY \"GAME f02 <password>\"\n#PRESS F02 <password>\n\
                    # RUMOR f02 <password>\nGAME f05 <password>\nREPORT f02 secret 3\nEND";
        let out = with_password(text, "f02", "s3cret");
        assert_eq!(
            out,
            "GAME f02 s3cret alpha\r\nUNIT U1\nSAY \"GAME f02 <password>\"\n#PRESS F02 s3cret\n\
             # RUMOR f02 s3cret\nGAME f05 <password>\nREPORT f02 secret 3\nEND"
        );
        assert_eq!(out.lines().count(), text.lines().count());
    }

    #[test]
    fn form_fields_are_read_as_browsers_encode_them() {
        assert_eq!(decode("a+b%20c%2Fd%zz%4"), "a b c/d%zz%4");
        let f = form("faction=f02&password=p%26w%3D&x");
        assert_eq!((f["faction"].as_str(), f["password"].as_str(), f.len()), ("f02", "p&w=", 2));
    }
}
