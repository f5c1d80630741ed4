//! Hex maps as SVG pictures (`overlord map`), for any rule system whose places
//! have axial hex coordinates: flat-topped hexes at `(q, r)` (north is
//! `(0, -1)`, north-east `(1, -1)`, south-east `(1, 0)`), each with its id, a
//! title shown on hovering, a fill colour (or grey when only its id is known), a
//! white ring for the viewer's own, and a dot for places inside.

use super::html::escape;
use std::fmt::Write;

/// What a rule system keeps of a turn's map to draw it for any viewer, taken from
/// the turn's state once ([`crate::core::system::GameSystem::atlas`]).
pub trait Atlas: Send + Sync {
    /// The map as SVG, whole (`faction: None`) or as faction `faction` (its id, any
    /// case) knows it; an error names a faction the turn does not have.
    fn svg(&self, faction: Option<&str>) -> Result<String, String>;
}

/// Half the width of a hex, in SVG units.
const SIZE: f64 = 24.0;

/// One hex drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hex {
    /// Axial coordinates.
    pub at: (i32, i32),
    /// The label written in it.
    pub id: String,
    /// Shown on hovering.
    pub title: String,
    /// Fill colour; `None`: known by id only, grey.
    pub color: Option<(u8, u8, u8)>,
    /// Ringed: the viewer's own.
    pub ringed: bool,
    /// Marked with a dot: places inside it.
    pub dot: bool,
}

fn centre((q, r): (i32, i32)) -> (f64, f64) {
    (SIZE * 1.5 * f64::from(q), SIZE * 3f64.sqrt() * (f64::from(r) + f64::from(q) / 2.0))
}

/// The picture of `hexes`, in their order, on a dark ground that fits them.
pub fn svg(hexes: &[Hex]) -> String {
    let (mut x0, mut y0, mut x1, mut y1) = (0f64, 0f64, 0f64, 0f64);
    for (k, h) in hexes.iter().enumerate() {
        let (x, y) = centre(h.at);
        if k == 0 {
            (x0, y0, x1, y1) = (x, y, x, y);
        }
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let pad = SIZE * 1.5;
    let (w, h) = (x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad);
    let mut o = String::with_capacity(300 * hexes.len() + 500);
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{:.1} {:.1} {w:.1} {h:.1}" width="{w:.0}" height="{h:.0}" font-family="sans-serif">"#,
        x0 - pad,
        y0 - pad
    );
    let _ = writeln!(
        o,
        r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" fill="#20283a"/>"##,
        x0 - pad,
        y0 - pad
    );
    for c in hexes {
        let (x, y) = centre(c.at);
        let points: Vec<String> = (0..6)
            .map(|k| {
                let a = std::f64::consts::PI / 3.0 * f64::from(k);
                format!("{:.1},{:.1}", x + SIZE * a.cos(), y + SIZE * a.sin())
            })
            .collect();
        let (fill, stroke, width) = match (c.color, c.ringed) {
            (None, _) => ("#555b66".to_string(), "#888888", 1.0),
            (Some((r, g, b)), false) => (format!("#{r:02x}{g:02x}{b:02x}"), "#202020", 1.0),
            (Some((r, g, b)), true) => (format!("#{r:02x}{g:02x}{b:02x}"), "#ffffff", 3.0),
        };
        let _ = writeln!(
            o,
            r#"<g><title>{}</title><polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>"#,
            escape(&c.title),
            points.join(" ")
        );
        if c.dot {
            let _ = writeln!(
                o,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#f4e04d" stroke="#000000"/>"##,
                x,
                y - SIZE * 0.35,
                SIZE * 0.18
            );
        }
        let _ = writeln!(
            o,
            r##"<text x="{x:.1}" y="{:.1}" font-size="{:.1}" text-anchor="middle" fill="#000000">{}</text></g>"##,
            y + SIZE * 0.45,
            SIZE * 0.38,
            escape(&c.id)
        );
    }
    o.push_str("</svg>\n");
    o
}
