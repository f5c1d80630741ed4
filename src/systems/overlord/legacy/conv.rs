//! Helpers shared by the legacy converters: warnings, numbers, stats and bonuses.

use super::lexer::Line;
use crate::core::diag::Diagnostic;
use crate::systems::overlord::data::{Bonuses, SkillLevelReq, Stats, Tag, TagMap};
use std::path::{Path, PathBuf};

/// Collects the warnings of one conversion, naming file and line.
pub struct Conv {
    /// Warnings and errors so far.
    pub diags: Vec<Diagnostic>,
    /// Where each unit order was read, for checks that need the order language.
    pub orders: Vec<OrderSource>,
    file: PathBuf,
}

/// Where a unit's pending order came from: order `index` of unit `unit` was read
/// at `file`:`line`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderSource {
    /// The unit's id.
    pub unit: String,
    /// The order's position in the unit's list.
    pub index: usize,
    /// The legacy file.
    pub file: PathBuf,
    /// The line in it.
    pub line: usize,
}

impl Conv {
    /// A converter with no diagnostics yet.
    pub fn new() -> Conv {
        Conv { diags: Vec::new(), orders: Vec::new(), file: PathBuf::new() }
    }

    /// Sets the file that following warnings name.
    pub fn file(&mut self, path: &Path) {
        self.file = path.to_path_buf();
    }

    /// Records that order `index` of unit `unit` is read at `line` of the current file.
    pub fn order_at(&mut self, unit: &str, index: usize, line: usize) {
        self.orders.push(OrderSource { unit: unit.to_string(), index, file: self.file.clone(), line });
    }

    /// A warning at a line of the current file.
    pub fn warn(&mut self, line: usize, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(&self.file, line, 0, msg));
    }

    /// An error at a line of the current file.
    pub fn error(&mut self, line: usize, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(&self.file, line, 0, msg));
    }

    /// The warning for a keyword that has no meaning in this record.
    pub fn unknown(&mut self, l: &Line, record: &str) {
        self.warn(l.no, format!("keyword {} is not known in {record} records; line ignored", l.key));
    }

    /// Argument `i` as a signed number; warns and gives 0 when it is not one.
    pub fn int(&mut self, l: &Line, i: usize) -> i64 {
        match l.arg(i).parse::<i64>() {
            Ok(v) => v,
            Err(_) => {
                let shown = if l.arg(i).is_empty() { "nothing".to_string() } else { format!("'{}'", l.arg(i)) };
                self.warn(l.no, format!("{}: expected a number as argument {}, found {shown}; 0 used", l.key, i + 1));
                0
            }
        }
    }

    /// Argument `i` as an `i32`.
    pub fn i32(&mut self, l: &Line, i: usize) -> i32 {
        let v = self.int(l, i);
        v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }

    /// Argument `i` as a `u32`; negative values warn and give 0.
    pub fn u32(&mut self, l: &Line, i: usize) -> u32 {
        let v = self.int(l, i);
        if v < 0 {
            self.warn(l.no, format!("{}: negative value {v} where a count is expected; 0 used", l.key));
            return 0;
        }
        v.min(u32::MAX as i64) as u32
    }

    /// Argument `i` as a `u32`, or `default` when the argument is absent.
    pub fn u32_or(&mut self, l: &Line, i: usize, default: u32) -> u32 {
        if l.args.len() <= i { default } else { self.u32(l, i) }
    }

    /// Argument `i` as a tag; warns when absent.
    pub fn tag(&mut self, l: &Line, i: usize) -> Tag {
        let t = l.arg(i).to_string();
        if t.is_empty() {
            self.warn(l.no, format!("{}: argument {} is missing", l.key, i + 1));
        }
        t
    }

    /// Warns about arguments beyond the `n` a keyword takes.
    pub fn extra(&mut self, l: &Line, n: usize) {
        if l.args.len() > n {
            self.warn(l.no, format!("{}: extra arguments '{}' ignored", l.key, l.args[n..].join(" ")));
        }
    }

    /// `SKILL_CONDITION skill level` or `skill level` starting at argument `i`.
    pub fn skill_req(&mut self, l: &Line, mut i: usize) -> SkillLevelReq {
        if l.arg(i).eq_ignore_ascii_case("SKILL_CONDITION") {
            i += 1;
        }
        let skill = self.tag(l, i);
        let level = self.u32_or(l, i + 1, 1);
        SkillLevelReq { skill, level }
    }

    /// Sets a text field, warning when it replaces an earlier value.
    pub fn set_text(&mut self, field: &mut String, l: &Line) {
        if !field.is_empty() && *field != l.rest {
            self.warn(l.no, format!("{} given again; '{}' replaces '{}'", l.key, l.rest, field));
        }
        *field = l.rest.clone();
    }
}

impl Default for Conv {
    fn default() -> Self {
        Conv::new()
    }
}

/// Applies a stat keyword (`MELEE 3`) to `stats`; false if `key` is not a stat.
pub fn stat(stats: &mut Stats, key: &str, v: i32) -> bool {
    let f = match key {
        "MELEE" => &mut stats.melee,
        "MISSILE" => &mut stats.missile,
        "DEFENSE" | "DEFENCE" => &mut stats.defense,
        "INITIATIVE" => &mut stats.initiative,
        "DAMAGE" => &mut stats.damage,
        "RANGED_DAMAGE" => &mut stats.ranged_damage,
        "HITS" => &mut stats.hits,
        "LIFE" => &mut stats.life,
        "MANA" => &mut stats.mana,
        "UPKEEP" => &mut stats.upkeep,
        "CONTROL" => &mut stats.control,
        "STEALTH" => &mut stats.stealth,
        "OBSERVATION" => &mut stats.observation,
        _ => return false,
    };
    *f = v;
    true
}

/// Whether `key` is a stat keyword.
pub fn is_stat(key: &str) -> bool {
    stat(&mut Stats::default(), key, 0)
}

/// Movement mode tags by their position, for legacy files that name modes by number.
pub struct Modes(pub Vec<Tag>);

impl Modes {
    /// Resolves a mode written as a number (position) or a tag.
    pub fn resolve(&self, c: &mut Conv, l: &Line, i: usize) -> Tag {
        let a = l.arg(i);
        if let Ok(n) = a.parse::<usize>() {
            match self.0.get(n) {
                Some(t) => return t.clone(),
                None => {
                    c.warn(l.no, format!("{}: movement mode number {n} does not exist (0..{})", l.key, self.0.len()));
                    return a.to_string();
                }
            }
        }
        c.tag(l, i)
    }
}

/// Applies a bonus keyword to `b`; false if `key` is not a bonus keyword.
pub fn bonus(c: &mut Conv, modes: &Modes, b: &mut Bonuses, l: &Line) -> bool {
    let map: &mut TagMap = match l.key.as_str() {
        "STUDY_BONUS" | "LEARNING_BONUS" => &mut b.study,
        "LEARNING_LEVEL_BONUS" => &mut b.learning_level,
        "USE_BONUS" => &mut b.use_,
        "PRODUCTION_BONUS" => &mut b.production,
        "MOVE_BONUS" => {
            let m = modes.resolve(c, l, 0);
            let v = c.i32(l, 1);
            c.extra(l, 2);
            b.movement.insert(m, v);
            return true;
        }
        _ => return false,
    };
    let k = c.tag(l, 0);
    let v = c.i32(l, 1);
    c.extra(l, 2);
    map.insert(k, v);
    true
}

/// `CAPACITY mode n`: adds an entry to a capacity map.
pub fn capacity(c: &mut Conv, modes: &Modes, map: &mut TagMap, l: &Line) {
    let m = modes.resolve(c, l, 0);
    let v = c.i32(l, 1);
    c.extra(l, 2);
    map.insert(m, v);
}
