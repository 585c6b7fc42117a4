//! `lifesearch cnf` (not yet written).

/// Arguments of `lifesearch cnf`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Everything, until this command is written.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'lifesearch cnf' is not implemented yet")
}
