//! Mail in and out, whole process: real MIME messages as common mail programs
//! write them (`tests/fixtures/mail/`) taken in from a Maildir by `overlord mail-in`,
//! answered in the outbox; report mails written and sent by `overlord mail-out`.

mod common;

use common::{bin, root};
use mail_parser::{MessageParser, MimeHeaders};
use overlord::core::game::GameDir;
use overlord::systems::overlord::Overlord;
use std::fs;
use std::path::{Path, PathBuf};

/// A new alpha game with its `mail.ron`, and an empty Maildir beside it.
fn game(dir: &Path) -> (PathBuf, PathBuf) {
    let g = dir.join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &g).unwrap();
    fs::write(g.join("mail.ron"), "(name: \"Overlord alpha\", address: \"gm@example.org\")\n").unwrap();
    let m = dir.join("Maildir");
    for s in ["new", "cur", "tmp"] {
        fs::create_dir_all(m.join(s)).unwrap();
    }
    (g, m)
}

/// Delivers fixture `name` into the Maildir as its `n`th message.
fn deliver(maildir: &Path, n: u32, name: &str) -> String {
    let unique = format!("{}.M{n}P1.test", 1_790_000_000 + n);
    fs::copy(root().join("tests/fixtures/mail").join(name), maildir.join("new").join(&unique)).unwrap();
    unique
}

fn run(args: &[&Path]) -> (i32, String, String) {
    let mut c = bin();
    for a in args {
        c.arg(a);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .map(|r| r.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// The answer to message `unique`, read back: (recipient, in-reply-to, body).
fn answer(game: &Path, unique: &str) -> (String, String, String) {
    let bytes = fs::read(game.join("outbox/new").join(format!("answer-{unique}.eml"))).unwrap();
    let m = MessageParser::default().parse(&bytes).unwrap();
    let to = m.to().unwrap().first().unwrap().address.as_deref().unwrap().to_string();
    let reply = m.in_reply_to().as_text().unwrap_or("").to_string();
    (to, reply, m.body_text(0).unwrap().replace("\r\n", "\n"))
}

#[test]
fn mail_in_takes_orders_from_real_messages_and_answers_each_once() {
    let d = tempfile::tempdir().unwrap();
    let (g, m) = game(d.path());
    let names = [
        "thunderbird-flowed.eml",
        "gmail-alternative.eml",
        "outlook-cp1252.eml",
        "mutt-attachment.eml",
        "apple-mail-iso2022jp.eml",
        "vacation.eml",
        "no-sections.eml",
    ];
    let unique: Vec<String> = names.iter().enumerate().map(|(i, n)| deliver(&m, i as u32, n)).collect();
    let (code, out, err) = run(&[Path::new("mail-in"), &g, &m]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("7 message(s) taken"), "{out}");

    // Thunderbird: format=flowed joined (the wrapped comment is one line), the
    // signature's quoted header left out.
    let (to, reply, body) = answer(&g, &unique[0]);
    assert_eq!((to.as_str(), reply.as_str()), ("jheywood@screaming.net", "a1b2c3@screaming.net"));
    assert!(body.contains("the message: line 1: orders of f05 for turn 1 stored (1 unit block(s))"), "{body}");
    assert!(body.contains("f05, turn 1: 1 unit block, 1 order: 0 errors, 0 warnings"), "{body}");
    let f05 = fs::read_to_string(g.join("orders/0001/f05.txt")).unwrap();
    assert!(f05.contains("STUDY tact") && !f05.contains("Jim"), "{f05}");

    // Gmail: the plain part, not the HTML; the quoted template below is not read.
    let (to, reply, body) = answer(&g, &unique[1]);
    assert_eq!((to.as_str(), reply.as_str()), ("nirmalyadav@aol.com", "CAF=gmail-1234@mail.gmail.com"));
    assert!(body.contains("orders of f06 for turn 1 stored (1 unit block(s))") && !body.contains("error:"), "{body}");
    assert_eq!(files(&g.join("orders/0001")).iter().filter(|f| f.starts_with("f06")).count(), 1);

    // Outlook: Windows-1252 decoded; the answer goes to Reply-To.
    let (to, _, body) = answer(&g, &unique[2]);
    assert_eq!(to, "iyhael@home.example.net");
    assert!(body.contains("Befehle für Zug 1"), "the subject, decoded (RFC 2047): {body}");
    let f07 = fs::read_to_string(g.join("orders/0001/f07.txt")).unwrap();
    assert!(f07.contains("NAME \"Les Élus d’Ykima\""), "{f07}");

    // mutt: the orders in a text attachment, named in the answer.
    let (_, _, body) = answer(&g, &unique[3]);
    assert!(body.contains("orders.txt: line 1: orders of f08 for turn 1 stored"), "{body}");
    assert!(g.join("orders/0001/f08.txt").is_file());

    // Apple Mail: the orders refused (wrong password), the ISO-2022-JP rumour taken.
    let (_, _, body) = answer(&g, &unique[4]);
    assert!(body.contains("the message: error: line 1: wrong password for faction f09; nothing was stored"), "{body}");
    assert!(body.contains("line 5: rumour of f09 stored for the newspaper of turn 1"), "{body}");
    assert!(!g.join("orders/0001/f09.txt").exists());
    let rumour = fs::read_to_string(g.join("orders/0001/press/f09-01-rumor.txt")).unwrap();
    assert!(rumour.contains("アルファに龍がいる。"), "{rumour}");

    // An auto-reply and a mail without sections: set aside with a note, not answered.
    for (u, why) in [(&unique[5], "Auto-Submitted: auto-replied"), (&unique[6], "no GAME, PRESS, RUMOR or REPORT")] {
        assert!(!g.join(format!("outbox/new/answer-{u}.eml")).exists());
        let note = fs::read_to_string(g.join(format!("mail/set-aside/{u}.txt"))).unwrap();
        assert!(note.contains(why), "{note}");
        assert!(fs::read(g.join(format!("mail/set-aside/{u}.eml"))).unwrap().starts_with(b"From: "));
        assert!(out.contains(&format!("{u}: from ")) && out.contains("set aside"), "{out}");
    }
    assert!(!g.join("orders/0001/f10.txt").exists(), "the quoted template of an auto-reply is not taken");

    // Every message read: in cur/, marked seen.
    assert!(files(&m.join("new")).is_empty());
    let cur = files(&m.join("cur"));
    assert_eq!(cur.len(), 7);
    assert!(cur.iter().all(|f| f.ends_with(":2,S")), "{cur:?}");

    // Twice: nothing new. A message delivered again (a crash before it was moved)
    // is taken in again to the same effect, and answered once.
    let outbox = files(&g.join("outbox/new"));
    assert_eq!(outbox.len(), 5);
    let before = fs::read(g.join("outbox/new").join(&outbox[0])).unwrap();
    let (code, out, _) = run(&[Path::new("mail-in"), &g, &m]);
    assert_eq!((code, out.contains("0 message(s) taken")), (0, true), "{out}");
    deliver(&m, 0, names[0]);
    let (code, _, _) = run(&[Path::new("mail-in"), &g, &m]);
    assert_eq!(code, 0);
    assert_eq!(files(&g.join("outbox/new")), outbox);
    assert_eq!(fs::read(g.join("outbox/new").join(&outbox[0])).unwrap(), before, "the answer is not written again");
    assert_eq!(fs::read_to_string(g.join("orders/0001/f05.txt")).unwrap(), f05);
}

#[test]
fn a_report_asked_for_by_mail_comes_back_in_the_answer() {
    // RPC-REPORT through mail-in: the stored report follows the answer's lines.
    let d = tempfile::tempdir().unwrap();
    let (g, m) = game(d.path());
    let mail = "From: Jim <jheywood@screaming.net>\r\nSubject: my report\r\nMessage-ID: <r1@screaming.net>\r\n\r\nREPORT f05 pswd5 0\r\n";
    fs::write(m.join("new/1790000001.M1P1.test"), mail).unwrap();
    let (code, out, err) = run(&[Path::new("mail-in"), &g, &m]);
    assert_eq!(code, 0, "{out}{err}");
    let (to, _, body) = answer(&g, "1790000001.M1P1.test");
    assert_eq!(to, "jheywood@screaming.net");
    assert!(body.contains("the message: line 1: the report of f05 for turn 0 follows"), "{body}");
    let report = fs::read_to_string(g.join("turns/0000/reports/f05.txt")).unwrap();
    assert!(body.ends_with(&report), "{body}");
}

#[test]
fn mail_in_says_what_is_wrong_with_its_arguments() {
    let d = tempfile::tempdir().unwrap();
    let (g, m) = game(d.path());
    let (code, _, err) = run(&[Path::new("mail-in"), &g, &d.path().join("nowhere")]);
    assert_eq!(code, 1);
    assert!(err.contains("nowhere: error: not a Maildir: it has no new/ folder"), "{err}");
    fs::remove_file(g.join("mail.ron")).unwrap();
    deliver(&m, 1, "gmail-alternative.eml");
    let (code, _, err) = run(&[Path::new("mail-in"), &g, &m]);
    assert_eq!(code, 1);
    assert!(err.contains("mail.ron") && err.contains("address:"), "{err}");
    assert_eq!(files(&m.join("new")).len(), 1, "nothing was taken");
}

#[test]
fn mail_out_writes_each_report_mail_once_and_keeps_what_sendmail_refused() {
    let d = tempfile::tempdir().unwrap();
    let (g, _) = game(d.path());
    let (code, out, err) = run(&[Path::new("mail-out"), &g]);
    assert_eq!(code, 0, "{out}{err}");
    // The alpha world's player factions have addresses; its NPC factions do not.
    let written = files(&g.join("outbox/new"));
    assert!(out.contains(&format!("{} report mail(s) of turn 0 written", written.len())), "{out}");
    assert!(out.contains("have no address") && out.contains("f01"), "{out}");
    let f05 = fs::read(g.join("outbox/new/report-0000-f05.eml")).unwrap();
    let m = MessageParser::default().parse(&f05).unwrap();
    assert_eq!(m.to().unwrap().first().unwrap().address.as_deref(), Some("jheywood@screaming.net"));
    assert!(m.subject().unwrap().starts_with("Overlord alpha: turn 0 report for "), "{:?}", m.subject());
    let report = fs::read_to_string(g.join("turns/0000/reports/f05.txt")).unwrap();
    assert_eq!(m.body_text(0).unwrap().replace("\r\n", "\n"), report);
    let names: Vec<&str> = m.attachments().filter_map(|a| a.attachment_name()).collect();
    assert_eq!(names, ["f05-turn-0.json", "f05-turn-0.html", "f05-orders-turn-1.txt"]);
    assert_eq!(m.attachment(0).unwrap().contents(), fs::read(g.join("turns/0000/reports/f05.json")).unwrap());
    // The HTML page is the one `overlord report --html` prints: the map inline.
    let page = bin().args(["report"]).arg(&g).args(["f05", "--html"]).output().unwrap();
    assert_eq!(page.status.code(), Some(0));
    assert_eq!(m.attachment(1).unwrap().contents(), page.stdout);
    let page = String::from_utf8(page.stdout).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<div class=\"map\">\n<svg "), "{page}");

    // Twice: the turn's mails are not written again.
    let (_, out, _) = run(&[Path::new("mail-out"), &g]);
    assert!(out.contains("the report mails of turn 0 were written before"), "{out}");
    assert_eq!(files(&g.join("outbox/new")), written);

    // A sendmail that refuses f05's report: the others go to sent/, f05's stays.
    let log = d.path().join("sent.log");
    let cmd = format!(
        "cat > {0}.one; if grep -q '^To: .*jheywood' {0}.one; then exit 75; fi; cat {0}.one >> {0}",
        log.display()
    );
    let o = bin().args(["mail-out"]).arg(&g).args(["--sendmail", &cmd]).output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(err.contains("report-0000-f05.eml: error: not sent, it stays in the outbox"), "{err}");
    assert_eq!(files(&g.join("outbox/new")), ["report-0000-f05.eml"]);
    assert_eq!(files(&g.join("outbox/sent")).len(), written.len() - 1);
    let sent = fs::read_to_string(&log).unwrap();
    assert!(!sent.contains('\r'), "sendmail reads lines ending LF");
    assert_eq!(
        sent.matches("\nMessage-ID: ").count() + usize::from(sent.starts_with("Message-ID: ")),
        written.len() - 1
    );
    // Sent again later: only what stayed.
    let o = bin().args(["mail-out"]).arg(&g).args(["--sendmail", "cat > /dev/null"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout).matches(": sent").count(), 1);
    assert!(files(&g.join("outbox/new")).is_empty());
}
