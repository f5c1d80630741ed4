//! The generals order language (docs/generals.md, ruling 2), behind the core's
//! order-language seam ([`Grammar`]): a `GAME player password` section whose lines
//! give one action per general, one defensive order per region, and overtax
//! conversions.
//!
//! ```text
//! GENERAL "Ann": TRAVEL R7 [VIA R3 …]
//! GENERAL "Ann": MOVE T1 T2 TO R7 [VIA R3]
//! GENERAL "Ann": ATTACK R8 WITH T1 T2 AS FLANK
//! GENERAL "Ann": RECRUIT 40 archers
//! GENERAL "Ann": PREPARE
//! GENERAL "Ann": REST [LEARN healer]
//! GENERAL "Ann": TRAIN "Cid"
//! GENERAL "Ann": RAISE healer          (a skill raised, with or without an action)
//! GENERAL "Ann": CHAMPION T1           (Invincible Warrior's unit; not an action)
//! REGION R7: FORTIFY
//! REGION R7: WITHDRAW REARGUARD T3
//! OVERTAX R7 INCOME 2                  (income −2, hire limit +20 this turn)
//! OVERTAX R7 HIRE 1                    (hire limit −10, income +1 this turn)
//! ```
//!
//! Keywords, skills, troop types and battle orders are read in any case; skills,
//! troop types and orders by tag or name. A line that cannot be read is kept
//! with its reason, so the checker names it by line ([`check`]).

pub mod check;
#[cfg(test)]
mod tests;

use super::data::RuleSet;
use crate::core::orders::mail::{Grammar, Header, Line};
use crate::core::orders::text::{Args, QUOTES, keyword_of};

/// The words the language knows, from the rule set: battle orders, skills and
/// troop types by tag and by name (upper-case).
#[derive(Debug, Clone, Default)]
pub struct Words {
    orders: Vec<(String, String)>,
    skills: Vec<(String, String)>,
    troops: Vec<(String, String)>,
}

fn find(list: &[(String, String)], word: &str) -> Option<String> {
    let w = word.to_ascii_uppercase();
    list.iter().find(|(tag, name)| tag.eq_ignore_ascii_case(&w) || *name == w).map(|x| x.0.clone())
}

impl Words {
    /// The words of `rules`.
    pub fn new(rules: &RuleSet) -> Self {
        let up = |tag: &str, name: &str| (tag.to_string(), name.to_ascii_uppercase());
        Words {
            orders: rules.combat.orders.iter().map(|o| up(&o.tag, &o.name)).collect(),
            skills: rules.skills.iter().map(|s| up(&s.tag, &s.name)).collect(),
            troops: rules.troops.iter().map(|t| up(&t.tag, &t.name)).collect(),
        }
    }

    /// A skill named by tag or name, as its tag; names of several words are
    /// written joined (`master-tactician`) or quoted.
    fn skill(&self, word: &str) -> Result<String, String> {
        find(&self.skills, &word.replace(['-', '_'], " ")).ok_or_else(|| format!("no skill '{word}'"))
    }
}

/// Which way an overtax converts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overtax {
    /// Income lowered, hire limit raised.
    Income,
    /// Hire limit lowered, income raised.
    Hire,
}

/// A general's action for the turn (generals-rules.txt 35-56).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Alone, to a region of the player's kingdom, through the regions named.
    Travel {
        /// Destination region id.
        to: String,
        /// Regions passed through, in order.
        via: Vec<String>,
    },
    /// With troops of his region, up to the reach, through the regions named.
    Move {
        /// Troop unit ids.
        troops: Vec<String>,
        /// Destination region id.
        to: String,
        /// Regions passed through.
        via: Vec<String>,
    },
    /// Into an adjacent enemy region with troops of his region, under an order.
    Attack {
        /// Region id attacked.
        region: String,
        /// Troop unit ids.
        troops: Vec<String>,
        /// The offensive battle order's tag.
        order: String,
    },
    /// Men of a troop type hired in his region.
    Recruit {
        /// How many men.
        men: u32,
        /// Troop type tag.
        troop: String,
    },
    /// Prepare Battlefield.
    Prepare,
    /// R and R, learning a new skill if one is named.
    Rest {
        /// Skill tag learnt.
        learn: Option<String>,
    },
    /// Train a new general, named.
    Train {
        /// The new general's name.
        name: String,
    },
}

impl Action {
    /// The action's keyword, for messages.
    pub fn keyword(&self) -> &'static str {
        match self {
            Action::Travel { .. } => "TRAVEL",
            Action::Move { .. } => "MOVE",
            Action::Attack { .. } => "ATTACK",
            Action::Recruit { .. } => "RECRUIT",
            Action::Prepare => "PREPARE",
            Action::Rest { .. } => "REST",
            Action::Train { .. } => "TRAIN",
        }
    }
}

/// One line of orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A general's line: his action, if any, and skills raised.
    General {
        /// The general's name.
        general: String,
        /// His action.
        action: Option<Action>,
        /// Skills raised a level, by tag.
        raise: Vec<String>,
    },
    /// Invincible Warrior's unit chosen.
    Champion {
        /// The general's name.
        general: String,
        /// The troop unit id.
        troop: String,
    },
    /// A region's defensive order.
    Defense {
        /// Region id.
        region: String,
        /// The battle order's tag.
        order: String,
        /// Troop unit ids of the rearguard (WITHDRAW).
        rearguard: Vec<String>,
    },
    /// An overtax conversion.
    Overtax {
        /// Region id.
        region: String,
        /// Which way.
        kind: Overtax,
        /// How many steps.
        steps: u32,
    },
}

/// One player's order file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFile {
    /// The header line.
    pub header: Header,
    /// Its lines, read or with why not.
    pub lines: Vec<Line<Entry>>,
}

impl Grammar for Words {
    type File = OrderFile;

    fn start(&self, header: Header) -> OrderFile {
        OrderFile { header, lines: Vec::new() }
    }

    fn line(&self, file: &mut OrderFile, line: usize, text: &str) {
        file.lines.push(Line { line, text: text.to_string(), read: self.read(text) });
    }
}

/// `"name": rest` → (name, rest): a name in any of the accepted quotes, then a colon.
fn quoted_name(text: &str) -> Result<(String, &str), String> {
    let t = text.trim_start();
    let mut chars = t.char_indices();
    let open = chars.next().map(|x| x.1);
    let name_and_rest = match open {
        Some(q) if QUOTES.contains(&q) => {
            let body = &t[q.len_utf8()..];
            let end = body.find(|c: char| QUOTES.contains(&c)).ok_or("the general's name has no closing quote")?;
            let close = body[end..].chars().next().map_or(1, char::len_utf8);
            (body[..end].to_string(), &body[end + close..])
        }
        _ => {
            let end = t.find(':').ok_or("GENERAL needs the general's name, then ':' and the action")?;
            (t[..end].trim().to_string(), &t[end..])
        }
    };
    let (name, rest) = name_and_rest;
    if name.trim().is_empty() {
        return Err("GENERAL needs the general's name".into());
    }
    let rest = rest.trim_start().strip_prefix(':').ok_or("the general's name must be followed by ':'")?;
    Ok((name, rest))
}

/// `id: rest` → (id, rest), for REGION lines.
fn region_head(text: &str) -> Result<(String, &str), String> {
    let (id, rest) = text.split_once(':').ok_or("REGION needs the region, then ':' and its defensive order")?;
    let id = id.trim();
    if id.is_empty() || id.contains(char::is_whitespace) {
        return Err(format!("REGION needs one region id before ':', not '{id}'"));
    }
    Ok((id.to_string(), rest))
}

/// Words up to (not including) one of `stops`, upper-cased for comparison.
fn until<'a>(a: &mut Args<'a>, stops: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(w) = a.peek() {
        if stops.iter().any(|s| w.eq_ignore_ascii_case(s)) {
            break;
        }
        out.push(w.to_string());
        a.skip();
    }
    out
}

impl Words {
    /// Reads one line.
    pub fn read(&self, text: &str) -> Result<Entry, String> {
        let (kw, rest) = keyword_of(text);
        match kw.as_str() {
            "GENERAL" => self.general(rest),
            "REGION" => {
                let (region, rest) = region_head(rest)?;
                let mut a = Args::new("REGION", rest);
                let word = a.next("a defensive order")?;
                let order = find(&self.orders, word).ok_or_else(|| format!("no battle order '{word}'"))?;
                let mut rearguard = Vec::new();
                if a.peek().is_some_and(|w| w.eq_ignore_ascii_case("REARGUARD")) {
                    a.skip();
                    rearguard = until(&mut a, &[]);
                    if rearguard.is_empty() {
                        return Err("REARGUARD needs the troop units that stay".into());
                    }
                }
                a.end()?;
                Ok(Entry::Defense { region, order, rearguard })
            }
            "OVERTAX" => {
                let mut a = Args::new("OVERTAX", rest);
                let region = a.next("a region")?.to_string();
                let kind = match a.next("INCOME or HIRE")?.to_ascii_uppercase().as_str() {
                    "INCOME" => Overtax::Income,
                    "HIRE" => Overtax::Hire,
                    w => return Err(format!("OVERTAX converts INCOME or HIRE, not '{w}'")),
                };
                let steps = a.number("how many steps")?;
                if steps == 0 {
                    return Err("OVERTAX needs at least one step".into());
                }
                a.end()?;
                Ok(Entry::Overtax { region, kind, steps })
            }
            _ => Err(format!("'{kw}' is not an order: a line starts with GENERAL, REGION or OVERTAX")),
        }
    }

    fn general(&self, rest: &str) -> Result<Entry, String> {
        let (general, rest) = quoted_name(rest)?;
        let (kw, rest) = keyword_of(rest);
        // Skills raised may follow any action: `… RAISE healer tactician`.
        let (body, raised) = match rest.to_ascii_uppercase().find(" RAISE") {
            Some(i) if kw != "RAISE" => (&rest[..i], Some(&rest[i + " RAISE".len()..])),
            _ => (rest, None),
        };
        let raise_list = |words: &str| -> Result<Vec<String>, String> {
            let list: Vec<String> = words.split_whitespace().map(|w| self.skill(w)).collect::<Result<_, _>>()?;
            if list.is_empty() { Err("RAISE needs the skills raised".into()) } else { Ok(list) }
        };
        let raise = match raised {
            Some(w) => raise_list(w)?,
            None => Vec::new(),
        };
        let action = match kw.as_str() {
            "" => return Err("GENERAL needs an action after ':'".into()),
            "RAISE" => return Ok(Entry::General { general, action: None, raise: raise_list(body)? }),
            "CHAMPION" => {
                let mut a = Args::new("CHAMPION", body);
                let troop = a.next("the troop unit")?.to_string();
                a.end()?;
                return Ok(Entry::Champion { general, troop });
            }
            "TRAVEL" => {
                let mut a = Args::new("TRAVEL", body);
                let to = a.next("the region travelled to")?.to_string();
                let via = self.via(&mut a)?;
                Action::Travel { to, via }
            }
            "MOVE" => {
                let mut a = Args::new("MOVE", body);
                let troops = until(&mut a, &["TO"]);
                if troops.is_empty() {
                    return Err("MOVE needs the troop units that go, then TO and the region".into());
                }
                a.next("TO and the region")?;
                let to = a.next("the region moved to")?.to_string();
                let via = self.via(&mut a)?;
                Action::Move { troops, to, via }
            }
            "ATTACK" => {
                let mut a = Args::new("ATTACK", body);
                let region = a.next("the region attacked")?.to_string();
                match a.next("WITH and the troop units")? {
                    w if w.eq_ignore_ascii_case("WITH") => {}
                    w => return Err(format!("ATTACK needs WITH and the troop units, not '{w}'")),
                }
                let troops = until(&mut a, &["AS"]);
                if troops.is_empty() {
                    return Err("ATTACK needs the troop units that attack".into());
                }
                a.next("AS and the offensive order")?;
                let word = a.next("the offensive order")?;
                let order = find(&self.orders, word).ok_or_else(|| format!("no battle order '{word}'"))?;
                a.end()?;
                Action::Attack { region, troops, order }
            }
            "RECRUIT" => {
                let mut a = Args::new("RECRUIT", body);
                let men = a.number("how many men")?;
                if men == 0 {
                    return Err("RECRUIT needs at least one man".into());
                }
                let words: Vec<&str> = body.split_whitespace().skip(1).collect();
                let name = words.join(" ");
                if name.is_empty() {
                    return Err("RECRUIT needs the troop type".into());
                }
                let troop = find(&self.troops, &name).ok_or_else(|| format!("no troop type '{name}'"))?;
                Action::Recruit { men, troop }
            }
            "PREPARE" => {
                Args::new("PREPARE", body).end()?;
                Action::Prepare
            }
            "REST" => {
                let mut a = Args::new("REST", body);
                let learn = match a.next("LEARN") {
                    Err(_) => None,
                    Ok(w) if w.eq_ignore_ascii_case("LEARN") => {
                        let s = a.next("the skill learnt")?;
                        Some(self.skill(s)?)
                    }
                    Ok(w) => return Err(format!("REST takes LEARN and a skill, not '{w}'")),
                };
                a.end()?;
                Action::Rest { learn }
            }
            "TRAIN" => {
                let name = crate::core::orders::text::string_arg(body);
                if name.trim().is_empty() {
                    return Err("TRAIN needs the new general's name".into());
                }
                Action::Train { name }
            }
            other => {
                return Err(format!(
                    "'{other}' is not an action: TRAVEL, MOVE, ATTACK, RECRUIT, PREPARE, REST, TRAIN, RAISE or CHAMPION"
                ));
            }
        };
        Ok(Entry::General { general, action: Some(action), raise })
    }

    /// `[VIA r1 r2 …]` to the end of the line.
    fn via(&self, a: &mut Args<'_>) -> Result<Vec<String>, String> {
        match a.peek() {
            None => Ok(Vec::new()),
            Some(w) if w.eq_ignore_ascii_case("VIA") => {
                a.skip();
                let list = until(a, &[]);
                if list.is_empty() {
                    Err(format!("{} VIA needs the regions passed through", a.keyword))
                } else {
                    Ok(list)
                }
            }
            Some(w) => Err(format!("{} does not expect '{w}' here (VIA and the regions passed through?)", a.keyword)),
        }
    }
}
