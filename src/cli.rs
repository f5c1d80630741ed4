//! The `overlord` command line: one subcommand per engine command.

use crate::core::diag::Diagnostic;
use crate::core::engine::Threads;
use crate::core::game::{Answer, GameDir, GameError, ReportKind, describe};
use crate::core::progress::Progress;
use crate::core::system::JoinRequest;
use crate::systems;
use crate::systems::overlord::data::{self, Counts};
use crate::systems::overlord::{generate, legacy};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// overlord: an engine for play-by-email strategy games.
#[derive(Debug, Parser)]
#[command(name = "overlord", version, about)]
pub struct Cli {
    /// Log what the engine does on standard error (-v: steps, -vv: details).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Engine commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a scenario and its rule set; print every error with file, line and column.
    Validate {
        /// Scenario folder (holding game.ron).
        scenario: PathBuf,
        /// Rule set folder (default: assets/rules/(the ruleset named in game.ron), searched upward).
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Also print warnings.
        #[arg(long)]
        warnings: bool,
    },
    /// Convert a game in the original engine's text format into a rule set and a scenario.
    ImportLegacy {
        /// Legacy game folder (holding overlord.config).
        legacy_dir: PathBuf,
        /// Output folder: receives assets/rules/RULESET/ and scenarios/GAME/.
        out_dir: PathBuf,
        /// Name of the rule set written.
        #[arg(long)]
        ruleset_name: Option<String>,
        /// Seed of the scenario written.
        #[arg(long)]
        seed: Option<u64>,
        /// Print only the count of warnings, not each one.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Generate a random world of any size, for the rule set's system (Overlord, or
    /// the generals game: regions, players and troop units).
    Generate {
        /// Number of territories.
        #[arg(long)]
        locations: usize,
        /// Number of player factions (NPC factions are added).
        #[arg(long)]
        factions: usize,
        /// Number of units.
        #[arg(long)]
        units: usize,
        /// Seed: the same seed gives the same bytes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rule set folder to draw terrains, races, skills and items from.
        #[arg(long, default_value = "assets/rules/overlord")]
        rules: PathBuf,
        /// Output scenario folder (new, or empty).
        out_dir: PathBuf,
    },
    /// Create a game directory from a scenario: turn 0's state, reports and order templates.
    New {
        /// Scenario folder (holding game.ron).
        scenario: PathBuf,
        /// The game directory to create (must not exist, or be empty).
        game_dir: PathBuf,
        /// Rule set folder (default: found as for `validate`).
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Take in a mail: store its orders for the next turn (or the turn their header
    /// names) and its newspaper articles, answer its report requests.
    ///
    /// Orders start with `GAME faction password [turn|game]` and end at `END`; articles
    /// with `PRESS`/`RUMOR faction password`; `REPORT faction password [turn]` asks for a
    /// stored report, printed after the answers. A wrong faction, password, game or turn
    /// refuses that section (exit code 1); nothing of it is stored. Orders are checked
    /// as `check` does. A later submission for the same turn replaces the earlier one.
    Submit {
        /// The game directory.
        game_dir: PathBuf,
        /// The mail or order file (`-` for standard input).
        order_file: PathBuf,
    },
    /// Check an order file against the game's current state without storing it: one
    /// line per problem (`line N: error: …` or `line N: warning: …`) and a summary.
    /// Exit code 1 when there is an error.
    Check {
        /// The game directory.
        game_dir: PathBuf,
        /// The mail or order file (`-` for standard input).
        order_file: PathBuf,
    },
    /// Take in the new messages of a Maildir (`new/`), as `submit` takes in a file:
    /// orders, articles and report requests, in the body or in text attachments. Each
    /// message is answered in the game's outbox (`outbox/new/`) and moved to `cur/`;
    /// one that holds no section, or was sent automatically, is set aside in
    /// `mail/set-aside/` with a note. Running it twice takes nothing twice. Needs the
    /// game's `mail.ron` (docs/mail.md).
    MailIn {
        /// The game directory.
        game_dir: PathBuf,
        /// The Maildir (holding new/ and cur/).
        maildir: PathBuf,
    },
    /// Write each faction's report mail of the latest turn into the outbox (once
    /// per turn: the text report in the body, the JSON report, the HTML page and the
    /// order template attached), and with --sendmail send every message waiting there.
    MailOut {
        /// The game directory.
        game_dir: PathBuf,
        /// Turn whose reports are mailed (default: the latest).
        #[arg(long)]
        turn: Option<u32>,
        /// A command that sends one message read from its standard input and takes the
        /// recipients from it, run by `sh -c`, e.g. "/usr/sbin/sendmail -t -i".
        /// Messages it refuses stay in the outbox.
        #[arg(long)]
        sendmail: Option<String>,
    },
    /// Serve the game to its players on the web: after logging in with its id and
    /// password, a faction reads its reports and map, and writes orders in an editor
    /// that checks them as they are typed (docs/web.md). Plain HTTP: put a TLS proxy
    /// in front of it when it leaves the machine.
    Serve {
        /// The game directory.
        game_dir: PathBuf,
        /// The address to listen on (port 0: any free port, printed).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// Threads answering requests.
        #[arg(long, default_value_t = 4)]
        threads: usize,
    },
    /// Print the newspaper published with a turn.
    Newspaper {
        /// The game directory.
        game_dir: PathBuf,
        /// Turn (default: the current turn).
        #[arg(long)]
        turn: Option<u32>,
    },
    /// Run the next turn: read the state and the stored orders, write the new state and
    /// every faction's reports.
    Run {
        /// The game directory.
        game_dir: PathBuf,
        /// Worker threads: 1 runs everything on one thread, 0 (default) uses every core.
        /// The result is the same whatever the count.
        #[arg(long, default_value_t = 0, value_parser = threads_arg())]
        threads: usize,
        /// Never show the progress bar.
        #[arg(long)]
        no_progress: bool,
    },
    /// Print a stored report.
    Report {
        /// The game directory.
        game_dir: PathBuf,
        /// Faction id.
        faction: String,
        /// Turn (default: the current turn).
        #[arg(long)]
        turn: Option<u32>,
        /// Print the JSON report instead of the text report.
        #[arg(long, conflicts_with_all = ["template", "html"])]
        json: bool,
        /// Print the order template instead of the text report.
        #[arg(long, conflicts_with = "html")]
        template: bool,
        /// Print the report as one self-contained HTML page, with the faction's map.
        #[arg(long)]
        html: bool,
    },
    /// Draw the map of a game as SVG: every place, or as one faction knows it
    Map {
        /// The game directory.
        game_dir: PathBuf,
        /// Faction id: draw only what its report shows (default: the whole map).
        faction: Option<String>,
        /// Turn (default: the current turn).
        #[arg(long)]
        turn: Option<u32>,
        /// Write the SVG to this file instead of standard output.
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Add a faction for a new player between turns (START-*): it enters the
    /// current turn with its start units and gets a first report and order template
    Join {
        /// The game directory.
        game_dir: PathBuf,
        /// The faction's name.
        name: String,
        /// The player's mail address.
        email: String,
        /// Start type (Overlord: general, mage, adventurer, craftsman).
        start: String,
        /// Start place: a kind (Overlord: imperial, border, colonial) or one of its locations.
        place: String,
        /// Further choices of the start type (Overlord: a mage's element, a craftsman's two crafts).
        choices: Vec<String>,
        /// The faction's password (default: a new random one, printed).
        #[arg(long)]
        password: Option<String>,
        /// Threads for the report (default: all cores).
        #[arg(long, default_value_t = 0, value_parser = threads_arg())]
        threads: usize,
    },
    /// Demonstration: create a game from the bundled alpha scenario, submit its sample
    /// orders, run two turns and print a summary.
    Demo {
        /// Where to create the game (default: a new folder under the system's temporary folder).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The scenario to use.
        #[arg(long, default_value = "scenarios/alpha")]
        scenario: PathBuf,
        /// Number of turns to run.
        #[arg(long, default_value_t = 2)]
        turns: u32,
    },
}

fn print_diags(diags: &[Diagnostic], warnings: bool) {
    let stderr = std::io::stderr();
    let mut e = stderr.lock();
    for d in diags {
        if warnings || d.is_error() {
            let _ = writeln!(e, "{d}");
        }
    }
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    init_logging(cli.verbose);
    match cli.command {
        Command::New { scenario, game_dir, rules } => new_game(&scenario, &game_dir, rules.as_deref()),
        Command::Submit { game_dir, order_file } => take_mail(&game_dir, &order_file, true),
        Command::Check { game_dir, order_file } => take_mail(&game_dir, &order_file, false),
        Command::MailIn { game_dir, maildir } => mail_in(&game_dir, &maildir),
        Command::MailOut { game_dir, turn, sendmail } => mail_out(&game_dir, turn, sendmail.as_deref()),
        Command::Newspaper { game_dir, turn } => newspaper(&game_dir, turn),
        Command::Serve { game_dir, addr, threads } => serve(&game_dir, &addr, threads),
        Command::Run { game_dir, threads, no_progress } => run_turn(&game_dir, threads, !no_progress),
        Command::Report { game_dir, faction, turn, json, template, html } => {
            let kind = if html {
                None
            } else if json {
                Some(ReportKind::Json)
            } else if template {
                Some(ReportKind::Template)
            } else {
                Some(ReportKind::Text)
            };
            report(&game_dir, &faction, turn, kind)
        }
        Command::Map { game_dir, faction, turn, out } => map(&game_dir, faction.as_deref(), turn, out.as_deref()),
        Command::Join { game_dir, name, email, start, place, choices, password, threads } => {
            let request = JoinRequest { name, email, password: password.unwrap_or_default(), start, place, choices };
            join(&game_dir, request, threads)
        }
        Command::Demo { dir, scenario, turns } => demo(dir, &scenario, turns),
        Command::Validate { scenario, rules, warnings } => validate(&scenario, rules.as_deref(), warnings),
        Command::ImportLegacy { legacy_dir, out_dir, ruleset_name, seed, quiet } => {
            import(&legacy_dir, &out_dir, legacy::ImportOptions { ruleset_name, seed }, quiet)
        }
        Command::Generate { locations, factions, units, seed, rules, out_dir } => {
            // A world is never written over another folder's files.
            if std::fs::read_dir(&out_dir).is_ok_and(|mut d| d.next().is_some()) {
                eprintln!("error: {}: already exists and is not empty", out_dir.display());
                return 1;
            }
            // The rule set's system says which world is made.
            let system = crate::core::data::rule_set_head(&rules).map(|h| h.system).unwrap_or_default();
            let made = if system == "generals" {
                let opts =
                    systems::generals::generate::Options { regions: locations, players: factions, troops: units, seed };
                systems::generals::generate::generate_to_dir(&rules, &opts, &out_dir)
            } else {
                let opts = generate::Options { locations, factions, units, seed };
                generate::generate_to_dir(&rules, &opts, &out_dir)
            };
            match made {
                Ok(summary) => {
                    println!("{}: {summary}", out_dir.display());
                    0
                }
                Err(diags) => {
                    print_diags(&diags, true);
                    1
                }
            }
        }
    }
}

/// Loads and validates a scenario; prints the errors or a one-line summary.
fn validate(scenario: &Path, rules: Option<&Path>, warnings: bool) -> i32 {
    let checked = systems::of_scenario(scenario, rules).and_then(|s| s.validate(scenario, rules));
    let (diags, counts) = match checked {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{}", e.message);
            return 1;
        }
    };
    print_diags(&diags, warnings);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        eprintln!("{errors} error(s)");
        return 1;
    }
    println!("{}: valid: {counts}", scenario.display());
    0
}

fn import(dir: &Path, out: &Path, opts: legacy::ImportOptions, quiet: bool) -> i32 {
    if !dir.join("overlord.config").is_file() {
        eprintln!("{}: error: not a legacy game folder (no overlord.config)", dir.display());
        return 2;
    }
    let mut imported = legacy::import(dir, &opts);
    if !imported.diagnostics.iter().any(|d| d.is_error()) {
        let gaps = systems::overlord::gaps::legacy_warnings(&imported.rules, dir);
        imported.diagnostics.extend(gaps);
        let unreadable = systems::overlord::legacy_orders::drop_unreadable(&mut imported);
        imported.diagnostics.extend(unreadable);
    }
    print_diags(&imported.diagnostics, !quiet);
    let errors = imported.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = imported.diagnostics.len() - errors;
    if errors > 0 {
        eprintln!("{errors} error(s), {warnings} warning(s); nothing written");
        return 1;
    }
    let rules_dir = out.join("assets").join("rules").join(&imported.rules.info.name);
    let name = if imported.scenario.game.name.is_empty() { "imported" } else { &imported.scenario.game.name };
    let scen_dir = out.join("scenarios").join(name);
    if let Err(e) = data::save_ruleset(&rules_dir, &imported.rules) {
        eprintln!("{}: error: cannot write: {e}", rules_dir.display());
        return 1;
    }
    if let Err(e) = data::save_scenario(&scen_dir, &imported.scenario) {
        eprintln!("{}: error: cannot write: {e}", scen_dir.display());
        return 1;
    }
    println!(
        "wrote {} and {} ({warnings} warning(s)): {}",
        rules_dir.display(),
        scen_dir.display(),
        Counts::of(&imported.rules, &imported.scenario)
    );
    0
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => tracing::Level::WARN,
        1 => tracing::Level::INFO,
        2 => tracing::Level::DEBUG,
        _ => tracing::Level::TRACE,
    };
    // Colours only on a terminal: a log kept in a file or read by a script is plain.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(ansi)
        .try_init();
}

fn fail(e: GameError) -> i32 {
    eprintln!("{e}");
    1
}

fn new_game(scenario: &Path, game_dir: &Path, rules: Option<&Path>) -> i32 {
    match systems::of_scenario(scenario, rules).and_then(|s| s.create(scenario, rules, game_dir)) {
        Ok(s) => {
            println!(
                "created {}: turn {}, {} factions, {} units; reports and order templates in {}",
                game_dir.display(),
                s.turn,
                s.factions,
                s.units,
                s.reports.display()
            );
            0
        }
        Err(e) => fail(e),
    }
}

fn read_input(path: &Path) -> Result<String, GameError> {
    let bytes = if path == Path::new("-") {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map(|_| b)
    } else {
        std::fs::read(path)
    }
    .map_err(|e| GameError { path: path.to_path_buf(), message: e.to_string() })?;
    String::from_utf8(bytes)
        .map_err(|_| GameError { path: path.to_path_buf(), message: "orders must be plain text (UTF-8)".into() })
}

/// Takes in (or only checks) a mail and prints what became of each section. Returns
/// the exit code: 1 when a section was refused or, for a check, an order has an error.
fn take_mail(game_dir: &Path, mail_file: &Path, store: bool) -> i32 {
    let result = GameDir::open(game_dir).and_then(|g| {
        let system = systems::of_game(&g)?;
        let text = read_input(mail_file)?;
        let answers = system.take_mail(&g, &text, store);
        answers.map_err(|e| {
            if e.path == Path::new("orders") { GameError { path: mail_file.to_path_buf(), ..e } } else { e }
        })
    });
    let answers = match result {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let src = mail_file.display();
    let said = describe(&answers, store);
    for (error, line) in &said.lines {
        if *error {
            eprintln!("{src}: {line}");
        } else {
            println!("{src}: {line}");
        }
    }
    for text in &said.reports {
        print!("\n{text}");
    }
    i32::from(said.failed)
}

fn serve(game_dir: &Path, addr: &str, threads: usize) -> i32 {
    let result = GameDir::open(game_dir).and_then(|g| {
        let server = crate::web::Server::new(systems::of_game(&g)?, g)?;
        server.run(addr, threads, |bound| {
            println!("serving {} on http://{bound}/", game_dir.display());
            let _ = std::io::Write::flush(&mut std::io::stdout());
        })
    });
    match result {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

fn mail_in(game_dir: &Path, maildir: &Path) -> i32 {
    use crate::mailroom::inbound::Outcome;
    let result = GameDir::open(game_dir).and_then(|g| crate::mailroom::mail_in(systems::of_game(&g)?, &g, maildir));
    let done = match result {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    for m in &done.messages {
        match &m.outcome {
            Outcome::Taken { sections, refused, answer } => {
                let answer = match answer {
                    Some(p) => format!("answer {}", p.display()),
                    None => "no address to answer".to_string(),
                };
                println!("{}: from {}: {sections} section(s), {refused} refused; {answer}", m.name, m.from);
            }
            Outcome::SetAside { why, kept } => {
                println!("{}: from {}: set aside in {}: {why}", m.name, m.from, kept.display());
            }
        }
    }
    println!("{} message(s) taken from {}", done.messages.len(), maildir.display());
    0
}

fn mail_out(game_dir: &Path, turn: Option<u32>, sendmail: Option<&str>) -> i32 {
    let result =
        GameDir::open(game_dir).and_then(|g| crate::mailroom::mail_out(systems::of_game(&g)?, &g, turn, sendmail));
    let done = match result {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    if done.already {
        println!("the report mails of turn {} were written before", done.turn);
    } else {
        println!("{} report mail(s) of turn {} written to the outbox", done.written, done.turn);
    }
    if !done.no_address.is_empty() {
        println!(
            "{} faction(s) have no address; their reports stay in the turn folder: {}{}",
            done.no_address.len(),
            done.no_address.iter().take(10).cloned().collect::<Vec<_>>().join(" "),
            if done.no_address.len() > 10 { " …" } else { "" }
        );
    }
    let mut failed = false;
    for s in &done.sent {
        match &s.result {
            Ok(()) => println!("{}: sent", s.name),
            Err(e) => {
                eprintln!("{}: error: not sent, it stays in the outbox: {e}", s.name);
                failed = true;
            }
        }
    }
    i32::from(failed)
}

fn newspaper(game_dir: &Path, turn: Option<u32>) -> i32 {
    let result = GameDir::open(game_dir).and_then(|g| {
        let turn = match turn {
            Some(t) => t,
            None => g.current_turn()?,
        };
        let path = g.newspaper_path(turn);
        std::fs::read_to_string(&path).map_err(|e| GameError { path, message: e.to_string() })
    });
    match result {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => fail(e),
    }
}

/// `--threads`: 0 (every core) to 1,024.
fn threads_arg() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_THREADS)
}

/// The most worker threads `--threads` takes.
const MAX_THREADS: u64 = 1024;

fn run_turn(game_dir: &Path, threads: usize, progress: bool) -> i32 {
    let g = match GameDir::open(game_dir) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let system = match systems::of_game(&g) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut bar = Progress::new("turn", progress);
    match system.run(&g, Threads::from_count(threads), &mut |day, days| bar.update(day, days)) {
        Ok(s) => {
            bar.finish();
            println!(
                "turn {} done: {} factions, {} units, {} order file(s), {:.3} s ({:.3} s running the month); reports in {}",
                s.turn,
                s.factions,
                s.units,
                s.order_files,
                s.total_time.as_secs_f64(),
                s.run_time.as_secs_f64(),
                s.reports.display()
            );
            0
        }
        Err(e) => {
            bar.finish();
            fail(e)
        }
    }
}

/// Prints a stored report of `kind`, or its HTML page (`None`).
fn report(game_dir: &Path, faction: &str, turn: Option<u32>, kind: Option<ReportKind>) -> i32 {
    let result = GameDir::open(game_dir).and_then(|g| {
        let turn = match turn {
            Some(t) => t,
            None => g.current_turn()?,
        };
        let system = systems::of_game(&g)?;
        let Some(f) = system.faction(&g, turn, faction)? else {
            return Err(GameError {
                path: g.turn_dir(turn),
                message: format!("no faction '{faction}' in turn {turn}"),
            });
        };
        let Some(kind) = kind else {
            let pages = system.pages(&g)?;
            let atlas = system.atlas(&g, turn)?;
            return systems::report_page(&g, pages.as_ref(), atlas.as_deref(), turn, &f.id);
        };
        let bytes = g.read_report(turn, &f.id, kind)?;
        String::from_utf8(bytes)
            .map_err(|e| GameError { path: g.report_path(turn, &f.id, kind), message: e.to_string() })
    });
    match result {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => fail(e),
    }
}

fn map(game_dir: &Path, faction: Option<&str>, turn: Option<u32>, out: Option<&Path>) -> i32 {
    let result = GameDir::open(game_dir).and_then(|g| {
        let turn = match turn {
            Some(t) => t,
            None => g.current_turn()?,
        };
        systems::of_game(&g)?.map(&g, turn, faction)
    });
    let svg = match result {
        Ok(svg) => svg,
        Err(e) => return fail(e),
    };
    match out {
        None => {
            print!("{svg}");
            0
        }
        Some(path) => match std::fs::write(path, svg) {
            Ok(()) => {
                println!("wrote {}", path.display());
                0
            }
            Err(e) => fail(GameError { path: path.to_path_buf(), message: e.to_string() }),
        },
    }
}

fn join(game_dir: &Path, request: JoinRequest, threads: usize) -> i32 {
    let threads = Threads::from_count(threads);
    let result = GameDir::open(game_dir).and_then(|g| {
        let turn = g.current_turn()?;
        let (joined, password) = systems::of_game(&g)?.join(&g, request, threads)?;
        Ok((g, turn, joined, password))
    });
    match result {
        Ok((g, turn, joined, password)) => {
            println!("faction {} joined after turn {turn}; password {password}", joined.faction);
            for l in &joined.lines {
                println!("  {l}");
            }
            println!(
                "report (ending with the order template): {}",
                g.report_path(turn, &joined.faction, ReportKind::Text).display()
            );
            0
        }
        Err(e) => fail(e),
    }
}

fn demo(dir: Option<PathBuf>, scenario: &Path, turns: u32) -> i32 {
    let started = Instant::now();
    let dir = dir.unwrap_or_else(|| {
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        std::env::temp_dir().join(format!("overlord-demo-{}-{stamp}", std::process::id()))
    });
    let system = match systems::of_scenario(scenario, None) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let created = match system.create(scenario, None, &dir) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    println!("created {} from {} (turn {})", dir.display(), scenario.display(), created.turn);
    let g = match GameDir::open(&dir) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let mut samples: Vec<PathBuf> = std::fs::read_dir(scenario.join("orders"))
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "txt")).collect())
        .unwrap_or_default();
    samples.sort();
    for p in &samples {
        let taken = read_input(p).and_then(|t| system.take_mail(&g, &t, true));
        match taken.map(|a| a.into_iter().next()) {
            Ok(Some(Answer::Orders(r))) => {
                println!("submitted {} for {} ({} {}s)", p.display(), r.faction, r.blocks, r.block)
            }
            Ok(Some(Answer::Refused { line, message })) => {
                return fail(GameError { path: p.clone(), message: format!("line {line}: {message}") });
            }
            Ok(_) => return fail(GameError { path: p.clone(), message: "no orders in this file".into() }),
            Err(e) => return fail(e),
        }
    }
    let mut last = None;
    for _ in 0..turns {
        let mut bar = Progress::new("turn", true);
        match system.run(&g, Threads::All, &mut |d, n| bar.update(d, n)) {
            Ok(s) => {
                bar.finish();
                println!(
                    "turn {}: {} factions, {} units, {:.3} s ({:.3} s running the month)",
                    s.turn,
                    s.factions,
                    s.units,
                    s.total_time.as_secs_f64(),
                    s.run_time.as_secs_f64()
                );
                last = Some(s);
            }
            Err(e) => {
                bar.finish();
                return fail(e);
            }
        }
    }
    let Some(s) = last else { return 0 };
    println!(
        "demo done in {:.2} s: game at turn {}, {} factions, {} units; reports in {}",
        started.elapsed().as_secs_f64(),
        s.turn,
        s.factions,
        s.units,
        s.reports.display()
    );
    println!("read one with: overlord report {} f01", dir.display());
    0
}
