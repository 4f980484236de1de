//! `entropy serve`: the web page, the bot spec's JSON API and the game API.

use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use entropy_web::{serve, ServeConfig};

/// Serve the web page (play against the bot, watch bots, replay records) and the JSON APIs.
///
/// Open http://127.0.0.1:8080/ in a browser. The bot specification's endpoints are
/// `POST /api/order-next-turn` and `POST /api/chaos-next-turn`; everything is described at
/// `/api/openapi.json`. Searches run at most `--max-searches` at a time with `--queue` more
/// waiting; beyond that requests get 503.
#[derive(clap::Args)]
pub struct Args {
    /// Port (0 picks a free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (0.0.0.0 for every interface).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The bot answering by default.
    #[arg(long, default_value = "search")]
    bot: String,
    /// Seconds per bot move (the bot spec allows 2) and the most a request may ask for.
    #[arg(long, default_value_t = 1.9)]
    move_time: f64,
    /// Searches at once [default: the number of CPUs].
    #[arg(long)]
    max_searches: Option<usize>,
    /// Requests waiting for a search slot before 503.
    #[arg(long, default_value_t = 64)]
    queue: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if !(args.move_time.is_finite() && args.move_time > 0.0) {
        bail!("--move-time must be a positive number of seconds");
    }
    entropy_engine::make_bot(&args.bot, 0)?;
    let mut config = ServeConfig {
        bot: args.bot,
        move_time: Duration::from_secs_f64(args.move_time),
        queue: args.queue,
        ..ServeConfig::default()
    };
    if let Some(max) = args.max_searches {
        config.max_searches = max.max(1);
    }
    // Searches are the only blocking tasks and at most `max_searches` run at once: as many
    // threads suffice, and fewer threads keep fewer freed transposition tables cached by the
    // allocator's per-thread arenas.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(config.max_searches)
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let address = SocketAddr::new(args.host, args.port);
    runtime
        .block_on(serve(config, address, |bound| {
            println!("serving Entropy on http://{bound}/ (Ctrl-C stops)");
        }))
        .with_context(|| format!("cannot serve on {address}"))?;
    Ok(ExitCode::SUCCESS)
}
