"""Read models folded from events: the in-game Events view, player views, replay walks."""
