//! The record of a battle (CMB-REPORT): what happened, blow by blow, as plain data.
//! The reports read it: the text renderer writes it in full or in the TERSE form,
//! the JSON report carries it as it is, and each faction's copy is cut to what it
//! may see ([`BattleRecord::seen_by`]).

use crate::core::battle::Role;
use bevy_ecs::entity::Entity;
use serde::{Deserialize, Serialize};

/// One battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleRecord {
    /// Day of the month.
    pub day: u32,
    /// Location id.
    pub location: String,
    /// `Name [id]` of the location.
    pub location_name: String,
    /// Why it was fought: `attack`, `enemy`, `guard`, `march`, `clash` or `pillage`.
    pub cause: String,
    /// Side 0 attacked, side 1 defended.
    pub sides: [SideRecord; 2],
    /// CMB-AMBUSH: each side's ambush level, the side that ambushed the other and
    /// by how much, and whether the roles were reversed.
    pub ambush: AmbushRecord,
    /// CMB-TACTICS: each side's tactic level.
    pub tactics: [u32; 2],
    /// The rounds, in order; the rout round last (CMB-ROUT).
    pub rounds: Vec<RoundRecord>,
    /// The winning side, if any (CMB-RESULT).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<u8>,
    /// Why it ended: `wiped out`, `morale`, `no wounds` or `rounds`.
    pub ended: String,
    /// What followed: losses after healing, loot, titles, heroes, retreats.
    pub aftermath: Vec<String>,
    /// Races, skills and items seen in the battle, by tag (their descriptions go
    /// to the factions with a unit alive after it).
    pub used: Used,
    /// The part of the report this copy is cut to: `full`, `terse` or `partial`.
    pub detail: String,
    /// How the faction reading this copy took part: `attacker`, `defender` or
    /// `bystander`.
    pub role: String,
    /// Who saw the battle, and how (not written).
    #[serde(skip)]
    pub witnesses: Vec<(Entity, Role)>,
}

/// One side of a battle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideRecord {
    /// Its factions' ids.
    pub factions: Vec<String>,
    /// Its units, in the order they were drawn in.
    pub units: Vec<FighterRecord>,
}

/// A unit in a battle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FighterRecord {
    /// Unit id.
    pub id: String,
    /// `Name [id]`.
    pub name: String,
    /// Its faction's id.
    pub faction: String,
    /// Its race's tag.
    pub race: String,
    /// Figures at the start.
    pub figures: u32,
    /// Figures alive at the end, after healing.
    pub survivors: u32,
    /// Whether it fled the battle (CMB-MOVES).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fled: bool,
    /// Where it stood at the start: rank and file names.
    pub position: String,
    /// Whether it is SILENT: its own faction's report leaves out its routine lines
    /// (RPT-BATTLE).
    #[serde(skip)]
    pub silent: bool,
    /// Its battle statistics (shown to the winners only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<BattleStats>,
}

/// A unit's battle statistics, per figure.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleStats {
    /// Melee attack.
    pub melee: i32,
    /// Missile attack.
    pub missile: i32,
    /// Defense.
    pub defense: i32,
    /// Initiative.
    pub initiative: i32,
    /// Life.
    pub life: i32,
    /// Strikes per round.
    pub hits: i32,
    /// Damage per hit.
    pub damage: i32,
}

/// Ambush levels (CMB-AMBUSH).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmbushRecord {
    /// Each side's level.
    pub levels: [i32; 2],
    /// Whether the defenders' higher level reversed the roles.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reversed: bool,
    /// The side that ambushed the other, and its lead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambusher: Option<(u8, i32)>,
}

/// One round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// Round number (the rout round follows the last).
    pub round: u32,
    /// Whether it is the rout round.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rout: bool,
    /// What happened, in order.
    pub lines: Vec<Line>,
    /// Figures killed on each side this round.
    pub casualties: [u32; 2],
}

/// One thing that happened in a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    /// A unit moved.
    Move {
        /// Unit id.
        unit: String,
        /// Where to: rank and file names.
        to: String,
    },
    /// A unit attacked.
    Attack {
        /// Unit id.
        unit: String,
        /// `MELEE`, `RANGED`, or the skill or item tag.
        action: String,
        /// The damage type of its hits, if the action has one (`firedam`…).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage: Option<String>,
        /// Figures that attacked.
        figures: u32,
        /// The units hit, in order.
        targets: Vec<Blow>,
    },
    /// A unit parried.
    Parry {
        /// Unit id.
        unit: String,
    },
    /// A unit's action could not be used.
    Skip {
        /// Unit id.
        unit: String,
        /// The action.
        action: String,
        /// Why.
        why: String,
    },
    /// A unit cast a spell (CMB-SPELL); its attack follows.
    Cast {
        /// Unit id.
        unit: String,
        /// The spell's tag.
        spell: String,
        /// The mana it cost.
        mana: u32,
    },
    /// An enchantment a unit cast fell on units (CMB-SPELL).
    Charm {
        /// The caster's id.
        unit: String,
        /// The enchantment's tag.
        effect: String,
        /// Rounds it lasts, this one included.
        rounds: u32,
        /// The units enchanted.
        units: Vec<String>,
    },
    /// A unit's spell called creatures onto the field (CMB-SPELL).
    Summon {
        /// The caster's id.
        unit: String,
        /// The id of the creatures' unit.
        summoned: String,
        /// Figures that came.
        figures: u32,
    },
    /// A unit left the battlefield.
    Flee {
        /// Unit id.
        unit: String,
    },
    /// A side's morale failed.
    Morale {
        /// The side.
        side: u8,
    },
}

impl Line {
    /// The unit the line is about, if one.
    pub fn unit(&self) -> Option<&str> {
        match self {
            Line::Move { unit, .. }
            | Line::Attack { unit, .. }
            | Line::Parry { unit }
            | Line::Skip { unit, .. }
            | Line::Cast { unit, .. }
            | Line::Charm { unit, .. }
            | Line::Summon { unit, .. }
            | Line::Flee { unit } => Some(unit),
            Line::Morale { .. } => None,
        }
    }

    /// Whether the TERSE form leaves it out: melee and parry (CMB-REPORT).
    pub fn routine(&self) -> bool {
        match self {
            Line::Parry { .. } => true,
            Line::Attack { action, .. } => action == "MELEE",
            _ => false,
        }
    }
}

/// What one attack did to one unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blow {
    /// Unit id.
    pub unit: String,
    /// Figures that struck at it.
    pub strikes: u32,
    /// Hits that landed.
    pub hits: u32,
    /// Figures killed.
    pub kills: u32,
}

/// What a battle showed, by tag.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Used {
    /// Races.
    pub races: Vec<String>,
    /// Combat skills used.
    pub skills: Vec<String>,
    /// Combat items used.
    pub items: Vec<String>,
}

impl BattleRecord {
    /// The copy of the battle faction `f` may read (CMB-REPORT): the sides see the
    /// whole battle, blow by blow or (`terse`) only what is not melee or parry;
    /// bystanders see who fought, the result and the losses. The battle statistics
    /// of the units go to the winners only; the description of what was used only
    /// to factions with a unit alive after the battle.
    ///
    /// `id` is the reader's faction id: its SILENT units' melee and parry lines are
    /// left out of its copy (RPT-BATTLE).
    pub fn seen_by(&self, f: Entity, id: &str, terse: bool, alive: bool) -> Option<BattleRecord> {
        let role = self.witnesses.iter().find(|w| w.0 == f)?.1;
        let mut r = self.clone();
        let quiet: Vec<&str> = self
            .sides
            .iter()
            .flat_map(|s| &s.units)
            .filter(|u| u.silent && u.faction == id)
            .map(|u| u.id.as_str())
            .collect();
        if !quiet.is_empty() {
            for round in &mut r.rounds {
                round.lines.retain(|l| !(l.routine() && l.unit().is_some_and(|u| quiet.contains(&u))));
            }
        }
        r.witnesses.clear();
        let winner = matches!((role, self.winner), (Role::Side(s), Some(w)) if s == w);
        if !winner {
            for side in &mut r.sides {
                for u in &mut side.units {
                    u.stats = None;
                }
            }
        }
        match role {
            Role::Side(s) => {
                r.role = if s == 0 { "attacker" } else { "defender" }.into();
                if terse {
                    r.detail = "terse".into();
                    for round in &mut r.rounds {
                        round.lines.retain(|l| !l.routine());
                    }
                } else {
                    r.detail = "full".into();
                }
                if terse || !alive {
                    r.used = Used::default();
                }
            }
            Role::Bystander => {
                r.role = "bystander".into();
                r.detail = "partial".into();
                for round in &mut r.rounds {
                    round.lines.clear();
                }
                r.rounds.retain(|x| x.casualties != [0, 0]);
                r.used = Used::default();
                r.ambush = AmbushRecord::default();
                r.tactics = [0, 0];
            }
        }
        Some(r)
    }
}
