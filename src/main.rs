use clap::Parser;

// A turn allocates and frees many small records (orders, names, report lines);
// mimalloc does this about a third faster than the system allocator on the
// alpha-sized x100 benchmark (see README, "Performance"). Its settings: `overlord::core::alloc`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    overlord::core::alloc::configure();
    // Output piped into a reader that stops early (`overlord report … | head`) ends
    // the process quietly, as for any Unix tool, instead of a panic on the next
    // write.
    #[cfg(target_os = "linux")]
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = overlord::cli::Cli::parse();
    let code = overlord::cli::run(cli);
    overlord::core::alloc::before_exit();
    std::process::exit(code);
}
