use clap::Parser;

fn main() {
    let cli = overlord::cli::Cli::parse();
    std::process::exit(overlord::cli::run(cli));
}
