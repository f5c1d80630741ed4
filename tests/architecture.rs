//! The layers of the code, checked on the sources: the core names no rule system;
//! each layer of the Overlord rule system imports only the layers below it; its
//! mechanics import each other without cycles. Test code (test modules, `tests.rs` and
//! `*_tests.rs` files, the test kit) may reach anywhere and is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir` that is not test code, with its text without its
/// test modules.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                todo.push(p);
            } else if name.ends_with(".rs")
                && !name.ends_with("_tests.rs")
                && !matches!(name.as_str(), "tests.rs" | "fixture.rs" | "testkit.rs")
            {
                out.push((p.clone(), without_tests(&std::fs::read_to_string(&p).unwrap())));
            }
        }
    }
    out.sort();
    out
}

/// The text of a file up to its inline test module (by convention, at its end).
fn without_tests(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() == "#[cfg(test)]" && lines.get(i + 1).is_some_and(|n| n.trim_end().ends_with('{')) {
            break;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The code of a text, without comments (`//` to the end of a line).
fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The names that follow `prefix` in the code: `crate::systems::overlord::data` → `data`.
fn after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        rest = &rest[i + prefix.len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

#[test]
fn the_core_names_no_rule_system() {
    for (path, text) in sources(&src().join("core")) {
        let code = code(&text);
        assert!(!code.contains("crate::systems"), "{} imports a rule system", path.display());
        assert!(!text.contains("Overlord"), "{} names Overlord", path.display());
    }
}

#[test]
fn the_tools_for_game_masters_and_players_sit_above_the_rule_systems() {
    // `mailroom` (mail in and out) and `web` (the web client) use the core and the
    // rule systems' commands; neither of those uses them, and they name no rule
    // system.
    for dir in ["core", "systems"] {
        for (path, text) in sources(&src().join(dir)) {
            assert!(!code(&text).contains("crate::mailroom"), "{} imports the mail room", path.display());
            assert!(!code(&text).contains("crate::web"), "{} imports the web client", path.display());
        }
    }
    for (path, text) in sources(&src().join("mailroom")).into_iter().chain(sources(&src().join("web"))) {
        let code = code(&text);
        assert!(
            !code.contains("systems::overlord") && !code.contains("systems::generals"),
            "{} names a rule system",
            path.display()
        );
    }
}

#[test]
fn rule_systems_do_not_import_each_other() {
    // A second rule system is written over the core, never by borrowing the first's
    // code.
    for (mine, other) in [("generals", "overlord"), ("overlord", "generals")] {
        for (path, text) in sources(&src().join("systems").join(mine)) {
            let code = code(&text);
            let name = format!("systems::{other}");
            assert!(!code.contains(&name), "{} imports the {other} rule system", path.display());
        }
    }
}

#[test]
fn each_overlord_layer_imports_only_the_layers_below_it() {
    layers_hold(
        "overlord",
        &[
            ("data", &[]),
            ("orders", &["data"]),
            ("legacy", &["data"]),
            ("generate", &["data"]),
            ("join", &["data"]),
            ("world", &["data", "orders"]),
            ("mechanics", &["data", "orders", "world"]),
            ("check", &["data", "orders", "world"]),
            ("report", &["data", "orders", "world", "mechanics"]),
        ],
    );
}

#[test]
fn each_generals_layer_imports_only_the_layers_below_it() {
    layers_hold(
        "generals",
        &[
            ("data", &[]),
            ("orders", &["data", "routes"]),
            ("world", &["data"]),
            ("mechanics", &["data", "orders", "world", "routes"]),
            ("report", &["data", "world", "mechanics"]),
        ],
    );
}

/// Every folder of rule system `system` is a layer that imports only the layers
/// `allowed` lists (files at the system's root, its own module, may use any).
/// Imports are read as `crate::systems::<system>::x` and as `super::x` from a
/// layer's own module.
fn layers_hold(system: &str, allowed: &[(&str, &[&str])]) {
    let allowed: BTreeMap<&str, &[&str]> = allowed.iter().copied().collect();
    let root = src().join("systems").join(system);
    let mut problems = Vec::new();
    for (path, text) in sources(&root) {
        let rel = path.strip_prefix(&root).unwrap();
        let Some(layer) = rel.components().next().and_then(|c| c.as_os_str().to_str()).filter(|c| !c.ends_with(".rs"))
        else {
            continue; // the system's own module may use every layer
        };
        let Some(ok) = allowed.get(layer) else { panic!("{} is in no known layer", path.display()) };
        let code = code(&text);
        let mut used = after(&code, &format!("crate::systems::{system}::"));
        // `super::x` in a layer's own module names the layer `x`.
        if rel.parent().is_some_and(|p| p.components().count() == 1) && rel.ends_with("mod.rs") {
            used.extend(after(&code, "super::"));
        }
        for used in used {
            if used != layer && !ok.contains(&used.as_str()) {
                problems.push(format!("{} ({layer}) imports {used}", rel.display()));
            }
        }
    }
    assert!(problems.is_empty(), "imports against the layers:\n{}", problems.join("\n"));
}

#[test]
fn mechanics_import_each_other_without_cycles() {
    let uses = acyclic_mechanics("overlord");
    assert!(uses.get("scheduler").is_none_or(|u| u.iter().all(|m| m == "intake")), "the scheduler: {uses:?}");
    acyclic_mechanics("generals");
}

/// Which mechanic folder of rule system `system` imports which (as
/// `mechanics::x`, or `super::x` from a mechanic's own module); fails on a cycle.
fn acyclic_mechanics(system: &str) -> BTreeMap<String, BTreeSet<String>> {
    let root = src().join("systems").join(system).join("mechanics");
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let folders: BTreeSet<String> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for (path, text) in sources(&root) {
        let Some(me) = path.strip_prefix(&root).unwrap().components().next() else { continue };
        let me = me.as_os_str().to_string_lossy().into_owned();
        if !folders.contains(&me) {
            continue;
        }
        let code = code(&text);
        let mut used = after(&code, "mechanics::");
        if path.strip_prefix(&root).unwrap().components().count() == 2 && path.ends_with("mod.rs") {
            used.extend(after(&code, "super::"));
        }
        for used in used.into_iter().filter(|m| folders.contains(m) && *m != me) {
            uses.entry(me.clone()).or_default().insert(used);
        }
    }
    // Depth-first search for a cycle, reported as the path around it.
    fn visit(
        m: &str,
        uses: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|x| x == m) {
            let mut cycle = path[i..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for next in uses.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, uses, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in folders.iter() {
        if let Some(cycle) = visit(m, &uses, &mut Vec::new(), &mut done) {
            panic!("{system}'s mechanics import each other in a circle: {}", cycle.join(" → "));
        }
    }
    assert!(!uses.is_empty(), "{system}'s mechanics import each other somewhere");
    uses
}
