from golfbox.bots.base import register
