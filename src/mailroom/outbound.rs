//! `overlord mail-out`: each faction's report mail of the latest turn into the
//! outbox, once per turn (the text report in the body; the JSON report, the HTML
//! page with the map and the order template attached); and, with a `sendmail` command, what waits there sent.

use super::compose::{self, Attachment, Letter};
use super::outbox::{Outbox, Sent};
use super::{Settings, file_safe, game_tag};
use crate::core::game::index::FactionRecord;
use crate::core::game::{GameDir, GameError, ReportKind};
use crate::systems::Commands;

/// What `mail-out` did.
#[derive(Debug, Clone, Default)]
pub struct Outbound {
    /// The turn whose reports were mailed.
    pub turn: u32,
    /// Report mails written now (none when the turn's were written before).
    pub written: usize,
    /// Whether the turn's report mails had been written before.
    pub already: bool,
    /// Factions with a report but no address: their reports stay in the turn folder.
    pub no_address: Vec<String>,
    /// What the `sendmail` command did with each waiting message.
    pub sent: Vec<Sent>,
}

/// Writes the report mails of `turn` (the latest by default) into the outbox
/// unless they were written before, then gives every waiting message to `sendmail`
/// when one is named.
pub fn mail_out(
    system: &dyn Commands,
    game: &GameDir,
    turn: Option<u32>,
    sendmail: Option<&str>,
) -> Result<Outbound, GameError> {
    let settings = Settings::of(game.root())?;
    let outbox = Outbox::of(game.root());
    let turn = match turn {
        Some(t) => t,
        None => game.current_turn()?,
    };
    let mut out = Outbound { turn, ..Outbound::default() };
    if outbox.has_turn(turn) {
        out.already = true;
    } else {
        let ids = reported(game, turn)?;
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let found = system.factions(game, turn, &refs)?;
        let game_name = game_tag(game);
        let mut to: Vec<(&String, FactionRecord)> = Vec::new();
        for (id, f) in ids.iter().zip(found) {
            match f.filter(|f| !f.email.trim().is_empty()) {
                Some(f) => to.push((id, f)),
                None => out.no_address.push(id.clone()),
            }
        }
        // The HTML pages' rule set and the turn's map, loaded once.
        let html = match to.is_empty() {
            true => None,
            false => Some((system.pages(game)?, system.atlas(game, turn)?)),
        };
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let letter = |(id, f): &(&String, FactionRecord)| -> Result<(String, Vec<u8>), GameError> {
            let id = id.as_str();
            let read = |kind| game.read_report(turn, id, kind);
            let text = read(ReportKind::Text)?;
            // The template is the text report's end (an older turn's, a file of its own).
            let template = match crate::core::template::of(&text) {
                Some(t) => Ok(t.to_vec()),
                None => read(ReportKind::Template),
            };
            let text = String::from_utf8_lossy(&text).into_owned();
            let mut attachments = Vec::new();
            if let Ok(json) = read(ReportKind::Json) {
                attachments.push(Attachment {
                    mime: "application/json",
                    name: format!("{id}-turn-{turn}.json"),
                    bytes: json,
                });
            }
            if let Some((pages, atlas)) = &html {
                let page = crate::systems::report_page(game, pages.as_ref(), atlas.as_deref(), turn, id)?;
                attachments.push(Attachment {
                    mime: "text/html",
                    name: format!("{id}-turn-{turn}.html"),
                    bytes: page.into_bytes(),
                });
            }
            if let Ok(template) = template {
                let name = format!("{id}-orders-turn-{}.txt", turn + 1);
                attachments.push(Attachment { mime: "text/plain", name, bytes: template });
            }
            let letter = Letter {
                to: (&f.name, f.email.trim()),
                subject: format!("{}: turn {turn} report for {} ({})", settings.name, f.name, f.id),
                id: format!("report.{turn:04}.{}.{game_name}", file_safe(&f.id)),
                answers: None,
                auto: "auto-generated",
                body: text,
                attachments,
            };
            Ok((format!("report-{turn:04}-{}", file_safe(&f.id)), compose::write(&settings, letter)))
        };
        // A batch at a time, so that memory stays bounded on a large game.
        for batch in to.chunks(256) {
            for mail in crate::core::engine::parallel::map_ordered(batch, threads, letter) {
                let (name, bytes) = mail?;
                if outbox.put(&name, &bytes)?.1 {
                    out.written += 1;
                }
            }
        }
        outbox.mark_turn(turn)?;
    }
    if let Some(command) = sendmail {
        out.sent = outbox.send(command)?;
    }
    Ok(out)
}

/// The factions with a text report in `turn`, by id.
fn reported(game: &GameDir, turn: u32) -> Result<Vec<String>, GameError> {
    let dir = game.turn_dir(turn).join("reports");
    let err = |e: std::io::Error| GameError { path: dir.clone(), message: e.to_string() };
    let mut ids = Vec::new();
    for e in std::fs::read_dir(&dir).map_err(err)? {
        let name = e.map_err(err)?.file_name().to_string_lossy().into_owned();
        if let Some(id) = name.strip_suffix(".txt").filter(|id| !id.ends_with(".orders") && !id.starts_with('.')) {
            ids.push(id.to_string());
        }
    }
    ids.sort();
    Ok(ids)
}
