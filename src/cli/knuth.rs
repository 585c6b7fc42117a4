//! `lifesearch knuth` (not yet written).

/// Arguments of `lifesearch knuth`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Everything, until this command is written.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'lifesearch knuth' is not implemented yet")
}
