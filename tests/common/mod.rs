//! Helpers shared by the whole-game tests: file trees compared byte for byte,
//! and JSON reports checked against their published schema.

#![allow(dead_code)]

use overlord::core::game::GameDir;
use overlord::systems::overlord::Overlord;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `overlord` binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_overlord"))
}

/// The original engine's alpha game, which the importer's tests read where it is
/// (`../shared/reference/overlord-alpha` beside the repository, or the folder
/// `OVERLORD_LEGACY_ALPHA` names). It is not part of the repository: where it is
/// absent, a test that needs it says so and is skipped, or fails if
/// `OVERLORD_LEGACY_REQUIRED` is set.
pub fn legacy_alpha() -> Option<PathBuf> {
    let dir = std::env::var_os("OVERLORD_LEGACY_ALPHA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/reference/overlord-alpha"));
    if dir.join("overlord.config").is_file() {
        return Some(dir);
    }
    let why = format!(
        "the original alpha game is not at {} (set OVERLORD_LEGACY_ALPHA to its folder): this test needs it",
        dir.display()
    );
    assert!(std::env::var_os("OVERLORD_LEGACY_REQUIRED").is_none(), "{why}");
    eprintln!("SKIPPED: {why}");
    None
}

/// The sample order files of the alpha world, in file-name order.
pub fn alpha_orders() -> Vec<String> {
    let mut names: Vec<PathBuf> =
        fs::read_dir(root().join("scenarios/alpha/orders")).unwrap().flatten().map(|e| e.path()).collect();
    names.sort();
    names.iter().map(|p| fs::read_to_string(p).unwrap()).collect()
}

/// A new alpha game in `dir` with the sample orders submitted.
pub fn alpha_game(dir: &Path) -> GameDir {
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, dir).unwrap();
    let g = GameDir::open(dir).unwrap();
    for text in alpha_orders() {
        g.submit::<Overlord>(&text).unwrap();
    }
    g
}

/// Every file under `dir`, by relative path.
pub fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.insert(p.strip_prefix(base).unwrap().to_path_buf(), fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The same files with the same bytes under `a` and `b`; but for each turn's mail
/// index, whose bytes hold the times its files were written, and which must only
/// be there.
pub fn assert_same_tree(a: &Path, b: &Path) {
    let (ta, tb) = (tree(a), tree(b));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>(), "same files");
    for (k, v) in &ta {
        if k.ends_with(overlord::core::game::index::FILE) {
            continue;
        }
        assert!(v == &tb[k], "{} differs", k.display());
    }
}

/// Checks `v` against the subset of JSON Schema that docs/report-schema.json uses.
/// Objects with `properties` must not carry undeclared fields, so the published
/// schema cannot fall behind the reports.
pub fn check(
    schema: &serde_json::Value,
    root: &serde_json::Value,
    v: &serde_json::Value,
    at: &str,
    errs: &mut Vec<String>,
) {
    use serde_json::Value;
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        return check(&root["$defs"][name], root, v, at, errs);
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ok = types.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "integer" => v.is_u64() || v.is_i64(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            _ => false,
        });
        if !ok {
            errs.push(format!("{at}: expected {types:?}, got {v}"));
            return;
        }
    }
    if let (Some(min), Some(n)) = (schema.get("minimum").and_then(Value::as_i64), v.as_i64())
        && n < min
    {
        errs.push(format!("{at}: {n} < {min}"));
    }
    if let Some(obj) = v.as_object() {
        for r in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
            if !obj.contains_key(r.as_str().unwrap()) {
                errs.push(format!("{at}: missing {r}"));
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (k, val) in obj {
            let sub = format!("{at}.{k}");
            match (props.and_then(|p| p.get(k)), schema.get("additionalProperties")) {
                (Some(s), _) => check(s, root, val, &sub, errs),
                (None, Some(s)) => check(s, root, val, &sub, errs),
                (None, None) => errs.push(format!("{sub}: not in the schema")),
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            check(items, root, x, &format!("{at}[{i}]"), errs);
        }
    }
}

pub mod fuzz;
