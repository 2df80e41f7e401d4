"""Entry point. The bot is not wired up yet; the engine comes first."""

if __name__ == "__main__":
    raise SystemExit("The Discord bot is not built yet: see the open issues.")
