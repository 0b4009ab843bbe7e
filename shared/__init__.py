"""The game-service kit: everything both game services share, and nothing game-specific."""
