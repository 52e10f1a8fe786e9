"""Invented copy for the demo workspace "Northwind Coffee Co."."""

from __future__ import annotations

POST_TEXTS: tuple[str, ...] = (
    "Our new Ethiopia Guji is here: bright, floral, with a finish like peach iced tea. "
    "Available in all three shops from today.",
    "Cold brew season is officially open. 18 hours of steeping, zero shortcuts. ☀️",
    "Meet Lina, our head roaster. She has cupped over 4,000 coffees this year and still "
    "gets excited about every one.",
    "Saturday latte art throwdown at the Harbor Street shop, 3 pm. Bring your best rosetta!",
    "We're hiring baristas for our new Riverside location. Full training, fair pay, free "
    "coffee forever. Apply via the link in bio.",
    "Pumpkin spice? We did it our way: real roasted pumpkin, cinnamon from Sri Lanka, "
    "nutmeg from Grenada. No syrups.",
    "Behind the scenes: how we profile a new green coffee, from sample roast to cupping table. 🧵",
    "Rainy Monday, warm cup. What's in your mug today?",
    "Our compostable cups are now 100% plant-based, lids included. Small steps, big impact. 🌱",
    "New: oat milk cortado. Silky, nutty, and dangerously good.",
    "Thank you for 10,000 followers! To celebrate, your next bag of beans is 15% off with "
    "code THANKYOU10K.",
    "Brewing tip: use water just off the boil (about 94 °C) for a sweeter pour-over.",
    "We visited the Santa Rosa cooperative in Huila, Colombia. Here's what direct trade "
    "looks like up close.",
    "The holiday blend is back: dark chocolate, orange peel, and a hint of clove. Limited batch!",
    "Open late this Friday for the neighbourhood art walk. Decaf is on us after 8 pm.",
    "Espresso 101 workshop: dial in your home machine with our trainers. Six seats left.",
    "Why do we rest our beans for 7 days after roasting? Degassing, and a sweeter cup.",
    "Our Kenya AA just scored 89 points on the cupping table. Blackcurrant, grapefruit, "
    "brown sugar.",
    "Reminder: bring your own cup and get 0.30 off any drink, every day.",
    "Café del Mar playlist on repeat at the Harbor Street shop this week. Come say hi!",
    "Flash sale: 20% off all brewing gear until midnight.",
    "Good morning from the roastery! First batch of the day is a natural Brazil. 🔥",
    "Introducing our subscription: fresh beans at your door every two weeks, pause anytime.",
    "We're closed on Monday for staff training. See you Tuesday with better coffee!",
    "The secret to great iced coffee? Brew it stronger and pour it over ice immediately.",
    "Community board: local artists, book clubs, lost cats. Pin yours at any Northwind shop.",
    "Team spotlight: Marco has been pulling shots at Riverside for five years. ☕",
    "Decaf doesn't have to be boring: our Swiss Water Colombia tastes like caramel and red apple.",
    "Our coffee truck will be at the farmers' market every Sunday in June.",
    "Sneak peek: a new single origin from Yunnan lands next week. Any guesses on the notes?",
)

HTML_TEXTS: tuple[str, ...] = (
    "<p>Big news! 🎉 Our <strong>third shop</strong> opens on Riverside Drive next month.</p>"
    "<p>Grand opening weekend: free drip coffee for the first 100 guests.</p>",
    "<p>Three ways to brew our Guji at home:</p><ul><li>V60</li><li>AeroPress</li>"
    "<li>French press</li></ul>",
    "<p>Latte art class this Thursday.</p><p>Sign up at the counter or "
    '<a href="https://northwind.example/classes">online</a>.</p>',
    "<p><em>New menu item:</em> honey lavender latte 💜</p>",
    "<p>Our roasting schedule for the week:</p><p>Mon: Brazil · Wed: Ethiopia · Fri: Colombia</p>",
    "<p>We're proud to support the <strong>Harbor Food Bank</strong>: every bag sold this "
    "week donates a meal.</p>",
)

HASHTAGS: tuple[str, ...] = (
    "#coffee",
    "#specialtycoffee",
    "#latteart",
    "#baristalife",
    "#coldbrew",
    "#roastery",
    "#northwindcoffee",
)

THREAD_REPLIES: tuple[str, ...] = (
    "Step 1: sample roast at 150 g, three profiles.",
    "Step 2: rest overnight, cup blind with the whole team.",
    "Step 3: pick the winner and scale up to the 15 kg roaster.",
)

FAILURE_MESSAGES: tuple[str, ...] = (
    "The access token for this account has expired. Reconnect the account and try again.",
    "Media upload failed: the video is longer than the 90 second limit for reels.",
    "The network rate limit was reached; the post was not published.",
    "Image aspect ratio is not supported (allowed: 4:5 to 1.91:1).",
    "The selected board no longer exists on Pinterest.",
    "The bot is missing the Send Messages permission in this Discord channel.",
)

LABELS: tuple[tuple[str, str], ...] = (
    ("Promotion", "#E4572E"),
    ("Seasonal", "#F3A712"),
    ("Behind the scenes", "#29335C"),
    ("Community", "#669BBC"),
    ("Product launch", "#8E44AD"),
    ("Events", "#2A9D8F"),
    ("Hiring", "#264653"),
)

SIGNATURE_TOPICS: tuple[tuple[str, str], ...] = (
    ("Shop hours", "Open daily 7am–7pm · Harbor Street · Riverside · Old Town"),
    ("Hashtags: core", "#coffee #specialtycoffee #northwindcoffee"),
    ("Hashtags: latte art", "#latteart #baristalife #coffeetime"),
    ("Hashtags: cold brew", "#coldbrew #icedcoffee #summer"),
    ("Link in bio", "Shop the beans → link in bio"),
    ("Website", "More at northwind.example"),
    ("Subscribe", "Fresh beans every two weeks: northwind.example/subscribe"),
    ("Sign-off: team", "— The Northwind team ☕"),
    ("Sign-off: Lina", "— Lina, head roaster"),
    ("Sign-off: Marco", "— Marco, Riverside"),
    ("Events", "See all events: northwind.example/events"),
    ("Careers", "Join us: northwind.example/careers"),
    ("Sustainability", "Our cups are compostable. Our sourcing is direct. 🌱"),
    ("Wholesale", "Wholesale enquiries: wholesale@northwind.example"),
    ("Gift cards", "Gift cards available in all shops and online."),
)

PINTEREST_BOARDS: tuple[tuple[str, str], ...] = (
    ("918273645501", "Latte Art"),
    ("918273645502", "Brewing Guides"),
    ("918273645503", "Café Interiors"),
    ("918273645504", "Seasonal Drinks"),
)

DISCORD_CHANNELS: tuple[tuple[str, str], ...] = (
    ("1123581321345589144", "announcements"),
    ("1123581321345589145", "new-beans"),
    ("1123581321345589146", "events"),
)

REPURPOSE_ERRORS: dict[str, str] = {
    "media_url_missing": "The source network returned no downloadable media URL.",
    "download_failed": "GET https://cdn.source.example.invalid/v/[redacted] returned 403.",
    "post_creation_failed": "Creating the post failed: destination token [redacted] rejected.",
}

IMAGE_PALETTES: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((111, 78, 55), (236, 224, 209)),
    ((42, 157, 143), (233, 196, 106)),
    ((38, 70, 83), (244, 162, 97)),
    ((142, 68, 173), (241, 196, 15)),
    ((228, 87, 46), (255, 232, 214)),
    ((41, 51, 92), (102, 155, 188)),
)
