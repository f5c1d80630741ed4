//! What a game folder does with what should not be there: a state file gone, a
//! folder of waiting orders that cannot be read, a state edited into
//! inconsistency. Each is refused with the file it names, and the game is left
//! as it was (docs/reliability.md).

mod common;

use common::{alpha_game, bin, root, tree};
use overlord::core::game::GameDir;
use overlord::systems::overlord::testkit::copy_dir;
use std::fs;

/// Runs `overlord run` on `dir` and returns its exit code and error output.
fn run(dir: &std::path::Path) -> (Option<i32>, String) {
    let out = bin().arg("run").arg(dir).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_state_file_gone_is_refused_not_read_as_empty() {
    // A missing units.ron once ran a turn in which every unit was gone.
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    alpha_game(&dir);
    fs::remove_file(dir.join("turns/0000/state/units.ron")).unwrap();
    let before = tree(&dir);
    let (code, err) = run(&dir);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("turns/0000/state"), "{err}");
    assert!(err.contains("the state of turn 0 is incomplete: units.ron missing"), "{err}");
    assert_eq!(tree(&dir), before, "nothing changed");
}

#[test]
fn a_folder_of_waiting_orders_that_cannot_be_read_is_refused() {
    // An orders folder replaced by a file, and an order file that is a folder,
    // were once taken for "no orders".
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    alpha_game(&dir);
    let waiting = dir.join("orders/0001");
    fs::rename(&waiting, t.path().join("aside")).unwrap();
    fs::write(&waiting, "not a folder").unwrap();
    let (code, err) = run(&dir);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("orders/0001"), "{err}");
    assert!(!dir.join("turns/0001").exists());
    fs::remove_file(&waiting).unwrap();
    fs::rename(t.path().join("aside"), &waiting).unwrap();
    fs::create_dir(waiting.join("f09.txt")).unwrap();
    let (code, err) = run(&dir);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("orders/0001/f09.txt: error: not a file"), "{err}");
    assert!(!dir.join("turns/0001").exists());
    fs::remove_dir(waiting.join("f09.txt")).unwrap();
    let (code, err) = run(&dir);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_state_edited_into_inconsistency_is_refused_with_file_and_line() {
    // A unit id written twice once gave a turn of 276 units from 275.
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    alpha_game(&dir);
    let units = dir.join("turns/0000/state/units.ron");
    let text = fs::read_to_string(&units).unwrap();
    let edited = text.replacen("id: \"U202\"", "id: \"U201\"", 1);
    assert_ne!(edited, text);
    fs::write(&units, &edited).unwrap();
    // The record of the second U201 opens the line before its id.
    let first = edited.lines().position(|l| l.contains("id: \"U201\"")).unwrap();
    let second = edited.lines().skip(first + 1).position(|l| l.contains("id: \"U201\"")).unwrap() + first + 1;
    let before = tree(&dir);
    let (code, err) = run(&dir);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("units.ron:{second}:3: error: duplicate unit 'U201'")), "line {second}: {err}");
    assert_eq!(tree(&dir), before, "nothing changed");
}

#[test]
fn only_a_state_the_engine_wrote_and_nothing_changed_since_goes_unvalidated() {
    // A run reads the state the engine wrote (the game begun, a turn run) without
    // validating it again when the turn's mail index vouches for it: written with
    // it, and no file of the state or rule set changed since. An edit, or an
    // index made again from the state on disk, vouches for nothing, and the run
    // validates (docs/reliability.md).
    use overlord::core::game::index::FILE;
    use overlord::systems::overlord::Overlord;
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    let g = alpha_game(&dir);
    // The index written a moment after the state, as on a clock that marks files
    // finely (on a coarse one, a file as old as the index is not vouched for).
    let later = |turn: &str| {
        let index = dir.join("turns").join(turn).join(FILE);
        let at = fs::metadata(&index).unwrap().modified().unwrap() + std::time::Duration::from_secs(1);
        fs::File::options().write(true).open(&index).unwrap().set_modified(at).unwrap();
    };
    later("0000");
    assert!(g.state_vouched::<Overlord>(0), "the state the game began with");
    let out = bin().arg("run").arg(&dir).arg("-vv").output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(log.contains("not validated again") && !log.contains("state validated"), "{log}");
    later("0001");
    assert!(g.state_vouched::<Overlord>(1), "the state the turn was written with");
    // A game master's edit: a unit id written twice. Nothing vouches for the
    // state; the run validates it and refuses it.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let units = dir.join("turns/0001/state/units.ron");
    let text = fs::read_to_string(&units).unwrap();
    fs::write(&units, text.replacen("id: \"U202\"", "id: \"U201\"", 1)).unwrap();
    assert!(!g.state_vouched::<Overlord>(1), "an edited state");
    let out = bin().arg("run").arg(&dir).arg("-vv").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("state validated") && !err.contains("not validated again"), "{err}");
    assert!(err.contains("units.ron:") && err.contains("error: duplicate unit 'U201'"), "{err}");
    // A mail taken in makes the index again from the edited state: it serves the
    // mail, and still vouches for nothing.
    g.submit::<Overlord>("GAME f05 pswd5\nUNIT U500\nSTUDY cmbt\n").unwrap();
    later("0001");
    assert!(g.faction::<Overlord>(1, "f05").unwrap().is_some());
    assert!(!g.state_vouched::<Overlord>(1), "an index made from the state on disk");
    let (code, err) = run(&dir);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("error: duplicate unit 'U201'"), "{err}");
    // The edit undone, the game master's: validated, and played.
    fs::write(&units, &text).unwrap();
    let (code, err) = run(&dir);
    assert_eq!(code, Some(0), "{err}");
    assert!(dir.join("turns/0002").is_dir());
}

#[test]
fn a_faction_id_leading_out_of_the_game_writes_nothing_anywhere() {
    let t = tempfile::tempdir().unwrap();
    let scen = t.path().join("deep/er/scen");
    copy_dir(&root().join("scenarios/alpha"), &scen);
    let f = scen.join("factions.ron");
    fs::write(&f, fs::read_to_string(&f).unwrap().replacen("id: \"f03\"", "id: \"../../x\"", 1)).unwrap();
    let out = bin()
        .arg("new")
        .arg(&scen)
        .arg(t.path().join("deep/er/game"))
        .arg("--rules")
        .arg(root().join("assets/rules/overlord"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("factions.ron:") && err.contains("faction id: '../../x' is not an id"), "{err}");
    assert!(!t.path().join("deep/er/game").exists());
    assert!(!t.path().join("deep/x").exists() && !t.path().join("x").exists());
}

#[test]
fn passwords_are_kept_hashed_and_never_written_in_clear() {
    // A faction's password is in no file of the game: not in the state, the
    // reports, the templates, the waiting orders or the turn's archive; a new one
    // set by the PASSWORD order takes effect the same way; the folder is its
    // owner's alone.
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    let g = alpha_game(&dir);
    g.submit::<overlord::systems::overlord::Overlord>("GAME f05 pswd5\nPASSWORD s3cr3t\nUNIT U500\nSTUDY cmbt\n")
        .unwrap();
    let (code, err) = run(&dir);
    assert_eq!(code, Some(0), "{err}");
    for (path, bytes) in tree(&dir) {
        let text = String::from_utf8_lossy(&bytes);
        for secret in ["pswd1", "pswd5", "s3cr3t"] {
            assert!(!text.contains(secret), "{secret} in {}", path.display());
        }
    }
    let factions = fs::read_to_string(dir.join("turns/0001/state/factions.ron")).unwrap();
    assert_eq!(factions.matches("password: \"$argon2id$").count(), 15, "{factions}");
    // The new password is f05's now; the old one no longer.
    let mail = |text: &str| {
        let file = t.path().join("mail.txt");
        fs::write(&file, text).unwrap();
        let out = bin().arg("submit").arg(&dir).arg(&file).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    assert_eq!(mail("GAME f05 s3cr3t\nUNIT U500\nSTUDY cmbt\n").0, Some(0));
    let (code, err) = mail("GAME f05 pswd5\nUNIT U500\nSTUDY cmbt\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("wrong password for faction f05"), "{err}");
    // A template sent back unchanged says what to do.
    let (code, err) = mail("GAME f05 <password> alpha\nUNIT U500\nSTUDY cmbt\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("write faction f05's password in place of <password> on this line"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
    }
}

#[test]
fn a_mail_index_missing_damaged_or_older_than_the_state_is_made_again_and_said_once() {
    // FILE-CHECK at mail speed: mail is checked through the turn's mail index. An
    // index that is gone, damaged or older than a game master's edit of the state
    // is not used: the mail is checked against the whole state, exactly as before,
    // the game master is told once, and the index is written again.
    use overlord::core::game::index::FILE;
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    let g = GameDir::create::<overlord::systems::overlord::Overlord>(&root().join("scenarios/alpha"), None, &dir);
    g.unwrap();
    let index = dir.join("turns/0000").join(FILE);
    assert!(index.is_file(), "a game starts with the mail index of turn 0");
    let mail = t.path().join("mail.txt");
    fs::write(&mail, "GAME f01 pswd1\nUNIT U1\nMOVE N\nUNIT U2\n@ guard\nUNIT U500\nSTUDY cmbt\n").unwrap();
    let check = || {
        let out = bin().arg("check").arg(&dir).arg(&mail).output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        (String::from_utf8_lossy(&out.stdout).into_owned(), said)
    };
    let (answer, said) = check();
    assert!(answer.contains("U500 is not one of your units"), "{answer}");
    assert!(!said.contains("mail index"), "{said}");
    let bytes = fs::read(&index).unwrap();
    let mut trailer = bytes.clone();
    let n = trailer.len();
    trailer[n - 20] ^= 1;
    let damages: [(&str, Option<Vec<u8>>); 4] = [
        ("it is missing", None),
        ("its trailer is damaged", Some(trailer)),
        ("its parts do not fit its length", Some([&bytes[..100], &bytes[108..]].concat())),
        ("it is not a mail index", Some(b"not an index".to_vec())),
    ];
    for (why, damaged) in damages {
        match damaged {
            Some(b) => fs::write(&index, b).unwrap(),
            None => fs::remove_file(&index).unwrap(),
        }
        let (again, said) = check();
        assert_eq!(again, answer, "{why}: the same answer from the whole state");
        let told = format!("the mail index of turn 0 cannot be used ({why})");
        assert_eq!(said.matches("cannot be used").count(), 1, "{why}: said once: {said}");
        assert!(said.contains(&told), "{said}");
        let (again, said) = check();
        assert_eq!(again, answer);
        assert!(!said.contains("mail index"), "{why}: the index was written again: {said}");
    }
    // A game master's edit of the state: U500 given to f01. The index made before
    // it is not used, and the check sees the edit.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let units = dir.join("turns/0000/state/units.ron");
    let text = fs::read_to_string(&units).unwrap();
    let at = text.find("id: \"U500\"").unwrap();
    let faction = at + text[at..].find("faction: \"").unwrap();
    let end = faction + text[faction + 10..].find('"').unwrap() + 11;
    fs::write(&units, format!("{}faction: \"f01\"{}", &text[..faction], &text[end..])).unwrap();
    let (edited, said) = check();
    assert!(said.contains("state/units.ron changed after it was made"), "{said}");
    assert!(!edited.contains("U500 is not one of your units"), "{edited}");
    let (again, said) = check();
    assert_eq!(again, edited);
    assert!(!said.contains("mail index"), "{said}");
}
