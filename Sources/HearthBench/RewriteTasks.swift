/// The rewrite benchmark's 20 tasks over given texts (spelling fixed, a passage quoted, a text rewritten or
/// turned into a list: answers that copy runs of their input), and ten short questions that copy nothing.
public enum RewriteTasks {
  public static let tasks: [String] = [
    "Correct the spelling and write the text out again: The comittee met on Tuesday to discus the new libary budget. Members agreed that the childrens section needs more books, and that the opening hours shoud be longer on Saturdays.",
    "Fix the typos and give me the whole text back: Dear Mrs Patel, thank you for you're letter of the 3rd. I am afraid the parcel was not deliverd because the adress was incomplete. We will send it agian on Monday morning.",
    "Please correct the grammar and spelling, keeping everything else: Our neighbours has a big garden with apple trees, and every autum they gives us a basket of apples. This year the harvest were smaller then usual because of the dry summer.",
    "Correct this and repeat it in full: Meeting notes - the projct deadline moves to Friday the 14th, Anna will update the shedule, Tom will book the meting room, and everyone should send there reports by Thursday evening.",
    "Write this out again with the spelling fixed: Remeber to bring sunscreen, a hat, two bottles of water, a packed lunch and comfortable shoes. The walk is about twelve kilometers and we will be back at the car park by four oclock.",
    "Correct the spelling mistakes and give back the paragraph: The recipie calls for two cups of flour, one cup of suger, three eggs and a pinch of salt. Mix the dry ingredents first, then add the eggs one at a time and stir untill smooth.",
    "Fix any mistakes and write it out: Hi Sam, just a quick note to say the plumber is comming on Wednesday between nine and twelve. Could you leave the back door unlocked and make sure the dog is in the garden? Thanks, Lea",
    "Proofread and return the full text: The museum is open from ten to six every day exept Monday. Entry is free for children under twelve, and there is a cafe on the ground floor that serves lunch untill three in the afternoon.",
    "Quote the sentence about the train exactly: We left the hotel at eight. The train to Porto departs from platform four at 9:15 and arrives just after noon. Lunch is booked at a small restaurant near the river.",
    "Copy out the second paragraph word for word:\n\nThe survey had 240 replies.\n\nMost people wanted longer opening hours at the weekend, and many asked for a quiet room for study. A few suggested a coffee machine near the entrance.\n\nThe board will discuss the results in March.",
    "Repeat the address from this message exactly as written: Hello, please send the signed forms to Northgate Lettings, 14 Harbour Road, Unit 3, Bristol BS1 5TT, before the end of the month. Many thanks, Carol.",
    "Give me the instructions from this text exactly, nothing else: Welcome to the flat! To turn on the heating, press the red button on the boiler twice, then turn the dial to 22. The wifi password is on the fridge. Enjoy your stay.",
    "Rewrite this more formally, keeping all the details: hey, the team lunch is on friday at 1pm at the italian place on king street, we booked a table for twelve, let me know by wednesday if you cant make it.",
    "Rewrite this as a polite email, keeping every fact: the printer on the second floor is broken again, it jams on every page, IT said they would fix it last week but nothing happened, we need it for the reports due on Monday.",
    "Make this clearer but keep the same facts: The bins go out Tuesday night, recycling every other week, the green bin is for garden waste only and the council will not take it if there is plastic in it, glass goes in the blue box.",
    "Rewrite in the first person, keeping every detail: Maria started at the bakery in 2019, learned to make sourdough from the head baker, and now runs the early shift from four in the morning until noon, five days a week.",
    "Turn this into a bulleted list, one item per line, same words: buy milk, eggs and bread, pick up the dry cleaning, call the garage about the brakes, book a dentist appointment for Leo, and pay the gas bill before Friday.",
    "List each step of this on its own line: Preheat the oven to 200 degrees. Chop the potatoes into wedges. Toss them in olive oil and salt. Spread them on a tray. Bake for forty minutes, turning them once halfway through.",
    "Split this into one sentence per line: The library closes early on Friday. Books due that day can be returned on Saturday without a fine. The self-service machines will be out of order until next week.",
    "Put each item of this packing list on its own line: passport, tickets, phone charger, adaptor plug, two jumpers, rain jacket, walking boots, toothbrush, sunglasses, a book for the train, and the hotel booking number.",
  ]

  public static let questions: [String] = [
    "What is the capital of Portugal?",
    "Give me three ideas for a rainy Sunday.",
    "How do I boil an egg?",
    "Write a short poem about autumn.",
    "What should I pack for a weekend in the mountains?",
    "Explain what a leap year is.",
    "Suggest a name for a grey cat.",
    "How many minutes are there in a day?",
    "What is a good way to start learning the guitar?",
    "Tell me a fun fact about octopuses.",
  ]
}
