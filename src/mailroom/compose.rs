//! The messages the game writes: answers to players' mail and report mail, as
//! complete RFC 5322 messages (MIME, UTF-8, lines ending CRLF).

use super::Settings;
use mail_builder::MessageBuilder;
use mail_builder::headers::address::Address;
use mail_builder::headers::raw::Raw;

/// A file attached to a message: its MIME type, its name, its bytes.
pub struct Attachment {
    /// MIME type (`application/json`).
    pub mime: &'static str,
    /// File name, as the player's mail program shows it.
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// What a message says and to whom.
pub struct Letter<'a> {
    /// The recipient: name (may be empty) and address.
    pub to: (&'a str, &'a str),
    /// Subject.
    pub subject: String,
    /// The local part of its `Message-ID` (the game's domain is added).
    pub id: String,
    /// The message it answers (`In-Reply-To`, `References`), if any.
    pub answers: Option<&'a str>,
    /// `Auto-Submitted` (RFC 3834): `auto-replied` for an answer, `auto-generated`
    /// for a report, so that players' auto-responders do not answer.
    pub auto: &'static str,
    /// The text, in the body.
    pub body: String,
    /// Attached files.
    pub attachments: Vec<Attachment>,
}

/// `letter` as a message from the game.
pub fn write(settings: &Settings, letter: Letter) -> Vec<u8> {
    let to: Address = if letter.to.0.is_empty() {
        Address::new_address(None::<String>, letter.to.1.to_string())
    } else {
        Address::new_address(Some(letter.to.0.to_string()), letter.to.1.to_string())
    };
    let mut m = MessageBuilder::new()
        .from((settings.name.clone(), settings.address.clone()))
        .to(to)
        .subject(letter.subject)
        .message_id(format!("{}@{}", letter.id, settings.domain()))
        .header("Auto-Submitted", Raw::new(letter.auto))
        .text_body(letter.body);
    if let Some(id) = letter.answers {
        m = m.in_reply_to(id.to_string()).references(id.to_string());
    }
    for a in letter.attachments {
        m = m.attachment(a.mime, a.name, a.bytes);
    }
    m.write_to_vec().unwrap_or_default()
}

/// The subject of an answer to a message whose subject is `subject`.
pub fn re(subject: &str, fallback: &str) -> String {
    let s = subject.trim();
    if s.is_empty() {
        fallback.to_string()
    } else if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:")) {
        s.to_string()
    } else {
        format!("Re: {s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::{MessageParser, MimeHeaders};

    fn settings() -> Settings {
        Settings { name: "Überlord alpha".into(), address: "gm@example.org".into() }
    }

    #[test]
    fn a_letter_is_a_complete_message_that_reads_back() {
        let bytes = write(
            &settings(),
            Letter {
                to: ("Ålice", "alice@example.net"),
                subject: "Überlord alpha: turn 3 report".into(),
                id: "report.0003.f01.alpha".into(),
                answers: Some("abc@mail.example.net"),
                auto: "auto-generated",
                body: "Faction f01\nline with ünïcode\n".into(),
                attachments: vec![Attachment {
                    mime: "application/json",
                    name: "f01-0003.json".into(),
                    bytes: b"{\"a\":1}".to_vec(),
                }],
            },
        );
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("\r\n"), "lines end CRLF");
        assert!(text.lines().all(|l| l.len() <= 998), "RFC 5322 line length");
        assert!(bytes.is_ascii(), "non-ASCII is encoded (RFC 2047 headers, MIME bodies)");
        let m = MessageParser::default().parse(&bytes).unwrap();
        assert_eq!(m.subject(), Some("Überlord alpha: turn 3 report"));
        assert_eq!(m.from().unwrap().first().unwrap().address.as_deref(), Some("gm@example.org"));
        assert_eq!(m.to().unwrap().first().unwrap().name.as_deref(), Some("Ålice"));
        assert_eq!(m.message_id(), Some("report.0003.f01.alpha@example.org"));
        assert_eq!(m.in_reply_to().as_text(), Some("abc@mail.example.net"));
        assert!(m.date().is_some());
        assert_eq!(m.body_text(0).unwrap().replace("\r\n", "\n"), "Faction f01\nline with ünïcode\n");
        let a = m.attachment(0).unwrap();
        assert_eq!(a.attachment_name(), Some("f01-0003.json"));
        assert_eq!(a.contents(), b"{\"a\":1}");
        let auto = m.headers_raw().find(|(n, _)| n.eq_ignore_ascii_case("Auto-Submitted")).unwrap().1;
        assert_eq!(auto.trim(), "auto-generated");
    }

    #[test]
    fn an_answer_s_subject_says_re_once() {
        assert_eq!(re("orders", "x"), "Re: orders");
        assert_eq!(re("RE: orders", "x"), "RE: orders");
        assert_eq!(re("  ", "Game: your mail"), "Game: your mail");
        assert_eq!(re("é", "x"), "Re: é", "a subject shorter than 3 bytes");
        assert_eq!(re("aaé", "x"), "Re: aaé", "a character across the third byte");
    }
}
