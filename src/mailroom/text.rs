//! What a player's mail message says: who sent it, and the texts that may hold
//! orders (its body, and its text attachments), decoded from MIME in any charset
//! and cleaned of what mail programs add: `format=flowed` soft line breaks, quoted
//! earlier messages (`> …`) and the signature below `-- `.

use mail_parser::{Address, MessageParser, MimeHeaders, PartType};

/// A message, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Read {
    /// Where an answer goes: its `Reply-To`, else its `From` (name, address).
    pub reply_to: Option<(String, String)>,
    /// Its `From` address, for the game master's log.
    pub from: String,
    /// Its subject.
    pub subject: String,
    /// Its `Message-ID`, without angle brackets.
    pub message_id: Option<String>,
    /// Why it must not be answered automatically, when it must not: a bounce, an
    /// auto-reply, a mailing list's or bulk message (RFC 3834).
    pub automatic: Option<String>,
    /// The texts that may hold orders, in the message's order.
    pub texts: Vec<Text>,
}

/// One text of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// How answers name it: `the message` for the body, else the attachment's name.
    pub label: String,
    /// The text, cleaned (see [`clean`]); its lines are the lines the player wrote.
    pub text: String,
}

/// Reads a message; `None` when the bytes are not a mail message at all.
pub fn read(raw: &[u8]) -> Option<Read> {
    let m = MessageParser::default().parse(raw)?;
    if m.headers().is_empty() {
        return None;
    }
    let first = |a: Option<&Address>| {
        a.and_then(|a| a.first()).and_then(|a| {
            let address = a.address.as_deref()?.trim();
            (!address.is_empty()).then(|| (a.name.as_deref().unwrap_or("").trim().to_string(), address.to_string()))
        })
    };
    let from = first(m.from());
    let reply_to = first(m.reply_to()).or_else(|| from.clone());
    let mut out = Read {
        reply_to,
        from: from.map(|f| f.1).unwrap_or_default(),
        subject: m.subject().unwrap_or("").trim().to_string(),
        message_id: m.message_id().map(str::to_string),
        automatic: automatic(&m),
        texts: Vec::new(),
    };
    // The body: its plain text parts (an HTML-only body as text).
    let bodies = m.text_body_count();
    for (i, part) in m.text_bodies().enumerate() {
        let Some(text) = m.body_text(i) else { continue };
        let flowed = part.content_type().and_then(|c| c.attribute("format")).is_some_and(is_flowed);
        let delsp =
            part.content_type().and_then(|c| c.attribute("delsp")).is_some_and(|d| d.eq_ignore_ascii_case("yes"));
        let label = if bodies > 1 { format!("the message, part {}", i + 1) } else { "the message".to_string() };
        out.texts.push(Text { label, text: clean(&text, flowed && !part.is_text_html(), delsp) });
    }
    // Text attachments (an order file sent as `orders.txt`), not the body's parts.
    for (i, part) in m.attachments().enumerate() {
        let name = part.attachment_name().map(str::to_string);
        let text = match &part.body {
            PartType::Text(t) => Some(t.to_string()),
            PartType::Binary(b) | PartType::InlineBinary(b)
                if name.as_deref().is_some_and(|n| n.to_ascii_lowercase().ends_with(".txt")) =>
            {
                std::str::from_utf8(b).ok().map(str::to_string)
            }
            _ => None,
        };
        let Some(text) = text else { continue };
        let flowed = part.content_type().and_then(|c| c.attribute("format")).is_some_and(is_flowed);
        let label = name.unwrap_or_else(|| format!("attachment {}", i + 1));
        out.texts.push(Text { label, text: clean(&text, flowed, false) });
    }
    Some(out)
}

fn is_flowed(format: &str) -> bool {
    format.eq_ignore_ascii_case("flowed")
}

/// Why message `m` must not be answered automatically (RFC 3834), if so.
fn automatic(m: &mail_parser::Message) -> Option<String> {
    let raw = |name: &str| {
        m.headers_raw().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.trim().to_ascii_lowercase())
    };
    if let Some(a) = raw("Auto-Submitted").filter(|a| a != "no") {
        return Some(format!("it was sent automatically (Auto-Submitted: {a})"));
    }
    if let Some(p) = raw("Precedence").filter(|p| matches!(p.as_str(), "bulk" | "junk" | "list")) {
        return Some(format!("it is a {p} message (Precedence: {p})"));
    }
    if raw("List-Id").is_some() {
        return Some("it came through a mailing list (List-Id)".into());
    }
    let from = m.from().and_then(|a| a.first()).and_then(|a| a.address.as_deref()).unwrap_or("");
    let local = from.split('@').next().unwrap_or("").to_ascii_lowercase();
    if matches!(local.as_str(), "mailer-daemon" | "postmaster") {
        return Some(format!("it is a delivery report (from {from})"));
    }
    if raw("Return-Path").is_some_and(|r| r == "<>") {
        return Some("it is a delivery report (an empty Return-Path)".into());
    }
    None
}

/// A text as its writer wrote it: `format=flowed` soft breaks joined (RFC 3676;
/// `delsp` removes the space before the break), space-stuffing removed; quoted lines
/// (`>` first) and everything below a signature line (`-- `) made blank, so that
/// the lines keep their numbers; line ends `\n`.
pub fn clean(text: &str, flowed: bool, delsp: bool) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut joining = false;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if !flowed {
            lines.push(line.to_string());
            continue;
        }
        let quoted = line.starts_with('>');
        let line = if !quoted { line.strip_prefix(' ').unwrap_or(line) } else { line };
        let soft = line.ends_with(' ') && line != "-- ";
        let piece = if soft && delsp { &line[..line.len() - 1] } else { line };
        match (joining, lines.last_mut()) {
            (true, Some(last)) if !quoted => last.push_str(piece),
            _ => lines.push(piece.to_string()),
        }
        joining = soft && !quoted;
    }
    let mut out = String::with_capacity(text.len());
    let mut signed = false;
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        signed |= line == "-- ";
        if signed || line.trim_start().starts_with('>') {
            continue;
        }
        out.push_str(line.trim_end_matches(' ').trim_end_matches('\t'));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_lines_and_the_signature_are_blank_and_lines_keep_their_numbers() {
        let t = clean("GAME f02 pw\n> GAME f02 old\nUNIT U1\n-- \nAlice\nEND", false, false);
        assert_eq!(t, "GAME f02 pw\n\nUNIT U1\n\n\n");
    }

    fn message(headers: &str, body: &str) -> Read {
        read(format!("From: A <a@example.net>\r\n{headers}\r\n{body}").as_bytes()).unwrap()
    }

    #[test]
    fn an_html_only_body_is_read_as_text() {
        let r = message("Content-Type: text/html\r\n", "<p>GAME f05 pw<br>UNIT U500<br>END</p>");
        let lines: Vec<&str> = r.texts[0].text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, ["GAME f05 pw", "UNIT U500", "END"]);
    }

    #[test]
    fn a_reply_written_below_the_quote_keeps_only_the_new_lines() {
        let r = message(
            "Subject: Re: report\r\n",
            "On Monday the game wrote:\r\n> GAME f05 <password>\r\n> UNIT U500\r\n\r\nGAME f05 pw\r\nUNIT U500\r\nEND\r\n",
        );
        assert_eq!(r.texts[0].text, "On Monday the game wrote:\n\n\n\nGAME f05 pw\nUNIT U500\nEND\n");
        assert_eq!(r.reply_to, Some(("A".into(), "a@example.net".into())));
        assert_eq!(r.automatic, None);
    }

    #[test]
    fn an_order_file_attached_as_bytes_is_read_when_it_is_named_txt() {
        let body = "--b\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"F05.TXT\"\r\nContent-Transfer-Encoding: base64\r\n\r\nR0FNRSBmMDUgcHcKRU5ECg==\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"map.png\"\r\n\r\nxx\r\n--b--\r\n";
        let r = message("Content-Type: multipart/mixed; boundary=b\r\n", body);
        let labels: Vec<&str> = r.texts.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["the message", "F05.TXT"]);
        assert_eq!(r.texts[1].text, "GAME f05 pw\nEND\n");
    }

    #[test]
    fn bytes_that_are_not_a_message_are_none() {
        assert_eq!(read(b""), None);
        assert!(read(b"\x00\x01 just bytes").is_none_or(|r| r.texts.iter().all(|t| !t.text.contains("GAME"))));
    }

    #[test]
    fn flowed_soft_breaks_are_joined_and_space_stuffing_removed() {
        // RFC 3676: a line ending in a space continues on the next; a leading space
        // was added by the sender (space-stuffing) and goes.
        assert_eq!(clean("MOVE N N N \nE E\r\n From here\n", true, false), "MOVE N N N E E\nFrom here\n");
        assert_eq!(clean("ab \ncd", true, true), "abcd", "DelSp=yes removes the space before the break");
        assert_eq!(clean("ab \ncd", false, false), "ab\ncd", "not flowed: the space is only trimmed");
    }
}
