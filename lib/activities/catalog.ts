// The canonical activity catalog. Profiles and buddy requests store only these ids;
// plain-English input is mapped onto them by canonicalize.ts via names and aliases.
//
// Rules (enforced by catalog.test.ts): ids are unique snake_case ascii, and no
// alias (after normalisation and light stemming) may point at two activities.
// Deliberately ambiguous words ("skating", "games", "riding") are left out so
// they come back as unmatched with suggestions instead of a silent wrong guess.

export interface Activity {
  id: string;
  name: string;
  category: string;
  aliases: readonly string[];
}

export const ACTIVITY_CATEGORIES = [
  'outdoors',
  'fitness',
  'sports',
  'water',
  'winter',
  'social',
  'food_drink',
  'arts_culture',
  'music',
  'games',
  'learning',
  'wellness',
  'family_pets',
  'volunteering',
  'travel',
] as const;

export type ActivityCategory = (typeof ACTIVITY_CATEGORIES)[number];

/** Builds a frozen entry; typing `category` here catches typos at compile time. */
function activity(id: string, name: string, category: ActivityCategory, aliases: readonly string[]): Activity {
  return Object.freeze({ id, name, category, aliases: Object.freeze([...aliases]) });
}

export const ACTIVITIES: readonly Activity[] = Object.freeze([
  // Outdoors
  activity('hiking', 'Hiking', 'outdoors', [
    'hike', 'hikes', 'hiking trails', 'trail hiking', 'day hikes', 'trekking', 'trek', 'hillwalking',
    'hill walking', 'bushwalking', 'rambling', 'fell walking', 'mountain hiking',
  ]),
  activity('walking', 'Walking', 'outdoors', ['walk', 'walks', 'long walks', 'nature walks', 'strolling', 'power walking']),
  activity('backpacking', 'Backpacking', 'outdoors', [
    'backpacking trips', 'thru hiking', 'through hiking', 'multi day hikes', 'long distance hiking',
  ]),
  activity('camping', 'Camping', 'outdoors', ['camp', 'tent camping', 'car camping', 'glamping', 'campfires', 'camping trips']),
  activity('rock_climbing', 'Rock Climbing', 'outdoors', [
    'climbing', 'climb', 'bouldering', 'boulder', 'climbing gym', 'indoor climbing', 'sport climbing',
    'top rope', 'top roping', 'lead climbing', 'trad climbing', 'outdoor climbing',
  ]),
  activity('mountaineering', 'Mountaineering', 'outdoors', [
    'alpinism', 'alpine climbing', 'mountain climbing', 'ice climbing', 'peak bagging', 'via ferrata',
  ]),
  activity('trail_running', 'Trail Running', 'outdoors', [
    'trail run', 'trail runs', 'ultra running', 'ultramarathon', 'ultramarathons', 'fell running', 'skyrunning',
  ]),
  activity('birdwatching', 'Birdwatching', 'outdoors', ['bird watching', 'birding', 'birds']),
  activity('fishing', 'Fishing', 'outdoors', ['fish', 'fly fishing', 'angling', 'sea fishing', 'ice fishing', 'bass fishing']),
  activity('foraging', 'Foraging', 'outdoors', ['mushroom hunting', 'mushroom foraging', 'wild food']),
  activity('gardening', 'Gardening', 'outdoors', [
    'garden', 'community garden', 'allotment', 'growing vegetables', 'plants', 'houseplants',
  ]),
  activity('geocaching', 'Geocaching', 'outdoors', ['geocache', 'geo caching']),
  activity('stargazing', 'Stargazing', 'outdoors', ['star gazing', 'astronomy', 'telescopes', 'night sky', 'astrophotography']),
  activity('picnics', 'Picnics', 'outdoors', ['picnic', 'picnicking', 'park picnics']),
  activity('horseback_riding', 'Horseback Riding', 'outdoors', [
    'horse riding', 'riding horses', 'horses', 'equestrian', 'trail riding', 'dressage', 'show jumping',
  ]),

  // Fitness
  activity('gym', 'Gym', 'fitness', [
    'going to the gym', 'the gym', 'weightlifting', 'weight lifting', 'lifting', 'lift', 'lifting weights',
    'weights', 'weight training', 'working out', 'workout', 'workouts', 'fitness', 'strength training',
    'bodybuilding', 'powerlifting', 'olympic lifting', 'gym sessions',
  ]),
  activity('running', 'Running', 'fitness', [
    'jogging', 'jog', 'run', 'runs', '5k', '10k', 'half marathon', 'marathon', 'marathons', 'marathon training',
    'road running', 'parkrun', 'track running',
  ]),
  activity('crossfit', 'CrossFit', 'fitness', ['cross fit', 'wod', 'functional fitness']),
  activity('hiit', 'HIIT', 'fitness', [
    'high intensity interval training', 'interval training', 'bootcamp', 'boot camp', 'circuit training', 'circuits',
  ]),
  activity('calisthenics', 'Calisthenics', 'fitness', ['bodyweight training', 'street workout', 'pull ups', 'gymnastics']),
  activity('indoor_cycling', 'Indoor Cycling', 'fitness', ['spin', 'spinning', 'spin class', 'peloton', 'stationary bike']),
  activity('pilates', 'Pilates', 'fitness', ['reformer pilates', 'mat pilates', 'barre']),
  activity('yoga', 'Yoga', 'fitness', [
    'hot yoga', 'vinyasa', 'hatha', 'bikram', 'yin yoga', 'ashtanga', 'power yoga', 'acro yoga', 'acroyoga',
  ]),
  activity('boxing', 'Boxing', 'fitness', ['sparring', 'boxercise', 'shadow boxing', 'boxing gym']),
  activity('martial_arts', 'Martial Arts', 'fitness', [
    'karate', 'judo', 'taekwondo', 'tae kwon do', 'kung fu', 'kickboxing', 'kick boxing', 'muay thai', 'krav maga',
    'aikido', 'capoeira', 'mma', 'mixed martial arts', 'kendo', 'wing chun', 'bjj', 'brazilian jiu jitsu',
    'jiu jitsu', 'jujitsu', 'grappling', 'wrestling', 'self defense', 'self defence',
  ]),
  activity('stretching', 'Stretching & Mobility', 'fitness', ['stretching', 'mobility', 'flexibility', 'foam rolling']),
  activity('road_cycling', 'Road Cycling', 'fitness', [
    'cycling', 'biking', 'bike', 'bikes', 'bike rides', 'bike riding', 'bicycle', 'bicycling', 'cycle', 'road biking',
    'road bike', 'gravel riding', 'gravel biking', 'bikepacking', 'cycle touring',
  ]),
  activity('mountain_biking', 'Mountain Biking', 'outdoors', [
    'mtb', 'mountain bike', 'mountain bikes', 'downhill biking', 'downhill mountain biking', 'enduro', 'bike park',
    'single track',
  ]),

  // Sports
  activity('tennis', 'Tennis', 'sports', ['lawn tennis', 'tennis match', 'tennis doubles']),
  activity('pickleball', 'Pickleball', 'sports', ['pickle ball']),
  activity('padel', 'Padel', 'sports', ['padel tennis', 'paddle tennis']),
  activity('squash', 'Squash', 'sports', ['racquetball', 'racketball']),
  activity('badminton', 'Badminton', 'sports', ['shuttlecock']),
  activity('table_tennis', 'Table Tennis', 'sports', ['ping pong', 'pingpong']),
  // "football" means soccer here: the wording most of the world uses.
  activity('soccer', 'Soccer', 'sports', [
    'football', 'futsal', 'five a side', '5 a side', 'footy', 'pickup soccer', 'sunday league',
  ]),
  activity('american_football', 'American Football', 'sports', ['flag football', 'touch football', 'gridiron']),
  activity('basketball', 'Basketball', 'sports', ['hoops', 'shooting hoops', 'pickup basketball', 'bball', 'streetball']),
  activity('volleyball', 'Volleyball', 'sports', ['volley ball', 'beach volleyball', 'indoor volleyball']),
  activity('baseball', 'Baseball', 'sports', ['batting cages', 'batting cage']),
  activity('softball', 'Softball', 'sports', ['slow pitch softball', 'slowpitch']),
  activity('golf', 'Golf', 'sports', ['golfing', 'driving range', 'golf course', 'pitch and putt', 'footgolf']),
  activity('disc_golf', 'Disc Golf', 'sports', ['frisbee golf', 'frolf', 'frolfing']),
  activity('ultimate_frisbee', 'Ultimate Frisbee', 'sports', ['ultimate', 'frisbee']),
  activity('cricket', 'Cricket', 'sports', ['nets', 'indoor cricket']),
  activity('rugby', 'Rugby', 'sports', ['touch rugby', 'rugby union', 'rugby league', 'tag rugby']),
  activity('ice_hockey', 'Ice Hockey', 'sports', ['hockey', 'pond hockey', 'shinny', 'rec hockey']),
  activity('bowling', 'Bowling', 'sports', ['ten pin bowling', 'tenpin', 'bowling alley', 'candlepin']),
  activity('archery', 'Archery', 'sports', ['bow and arrow', 'target archery']),
  activity('fencing', 'Fencing', 'sports', ['epee', 'sabre', 'saber fencing']),
  activity('skateboarding', 'Skateboarding', 'sports', ['skateboard', 'skate park', 'longboarding', 'longboard']),
  activity('roller_skating', 'Roller Skating', 'sports', [
    'rollerblading', 'roller blading', 'inline skating', 'roller derby', 'rollerskating',
  ]),
  activity('triathlon', 'Triathlon', 'sports', ['triathlons', 'ironman', 'duathlon', 'tri training']),
  activity('go_karting', 'Go Karting', 'sports', ['karting', 'go kart', 'go karts']),
  activity('paintball', 'Paintball', 'sports', ['airsoft', 'laser tag', 'lasertag']),

  // Water
  activity('swimming', 'Swimming', 'water', [
    'swim', 'swims', 'lap swimming', 'laps', 'open water swimming', 'wild swimming', 'sea swimming',
    'cold water swimming', 'swimming pool', 'the pool', 'pool swimming',
  ]),
  activity('surfing', 'Surfing', 'water', ['surf', 'bodyboarding', 'boogie boarding', 'bodysurfing']),
  activity('kayaking', 'Kayaking', 'water', ['kayak', 'sea kayaking', 'whitewater kayaking']),
  activity('canoeing', 'Canoeing', 'water', ['canoe', 'canoe trips']),
  activity('paddleboarding', 'Stand-up Paddleboarding', 'water', [
    'paddleboarding', 'paddle boarding', 'paddleboard', 'paddle board', 'sup', 'stand up paddle boarding',
  ]),
  activity('sailing', 'Sailing', 'water', ['sail', 'yachting', 'dinghy sailing', 'boating', 'sailboats']),
  activity('rowing', 'Rowing', 'water', ['row', 'crew', 'rowing machine', 'dragon boat', 'dragon boating']),
  activity('scuba_diving', 'Scuba Diving', 'water', ['scuba', 'diving', 'dive', 'dives', 'freediving', 'free diving']),
  activity('snorkeling', 'Snorkeling', 'water', ['snorkelling', 'snorkel']),
  activity('kitesurfing', 'Kitesurfing', 'water', ['kiteboarding', 'kite surfing', 'kite boarding']),
  activity('windsurfing', 'Windsurfing', 'water', ['windsurf', 'wing foiling', 'wingfoiling']),
  activity('wakeboarding', 'Wakeboarding', 'water', ['wake boarding', 'water skiing', 'waterskiing', 'wakesurfing']),
  activity('rafting', 'White Water Rafting', 'water', ['rafting', 'whitewater rafting', 'river rafting']),
  activity('beach_days', 'Beach Days', 'water', ['beach', 'going to the beach', 'beach day', 'sunbathing']),

  // Winter
  activity('skiing', 'Skiing', 'winter', [
    'ski', 'downhill skiing', 'alpine skiing', 'ski trips', 'backcountry skiing', 'ski touring', 'freeskiing',
  ]),
  activity('snowboarding', 'Snowboarding', 'winter', ['snowboard', 'splitboarding']),
  activity('cross_country_skiing', 'Cross-country Skiing', 'winter', [
    'xc skiing', 'nordic skiing', 'cross country ski', 'langlauf', 'skate skiing',
  ]),
  activity('ice_skating', 'Ice Skating', 'winter', ['ice skate', 'figure skating', 'ice rink', 'skating rink']),
  activity('snowshoeing', 'Snowshoeing', 'winter', ['snowshoe', 'snow shoeing']),
  activity('sledding', 'Sledding', 'winter', ['sledging', 'tobogganing', 'sled', 'sledge']),
  activity('curling', 'Curling', 'winter', ['curling club']),

  // Social
  activity('bars', 'Bars & Pubs', 'social', [
    'bar', 'pub', 'pubs', 'bar hopping', 'pub crawl', 'happy hour', 'drinks', 'going out for drinks', 'cocktails',
    'cocktail bars', 'mixology',
  ]),
  activity('clubbing', 'Clubbing & Nightlife', 'social', ['nightclubs', 'nightlife', 'partying', 'parties', 'raves']),
  activity('dinner_parties', 'Dinner Parties', 'social', ['dinner party', 'hosting dinners', 'potlucks', 'potluck']),
  activity('networking', 'Networking', 'social', ['professional networking', 'business networking', 'networking events']),
  activity('sports_watching', 'Watching Sports', 'social', [
    'watching sports', 'sports bar', 'watching football', 'watching the game', 'live sports', 'sports fan',
    'going to games',
  ]),
  activity('book_club', 'Book Club', 'social', ['book clubs', 'reading club', 'book group']),
  activity('shopping', 'Shopping', 'social', ['window shopping', 'malls', 'retail therapy']),
  activity('thrifting', 'Thrifting', 'social', [
    'thrift shopping', 'thrift stores', 'vintage shopping', 'flea markets', 'op shopping', 'charity shops',
    'garage sales', 'antiquing',
  ]),

  // Food & drink
  activity('coffee', 'Coffee', 'food_drink', [
    'cafe', 'cafes', 'coffee shops', 'cafe hopping', 'specialty coffee', 'grabbing coffee', 'grab a coffee',
    'coffee dates', 'tea', 'tea rooms',
  ]),
  activity('brunch', 'Brunch', 'food_drink', ['brunching', 'bottomless brunch']),
  activity('dining_out', 'Eating Out', 'food_drink', [
    'restaurants', 'trying new restaurants', 'dining out', 'foodie', 'food', 'food tours', 'street food',
    'fine dining', 'dinner out',
  ]),
  activity('cooking', 'Cooking', 'food_drink', ['cook', 'home cooking', 'recipes', 'meal prep']),
  activity('baking', 'Baking', 'food_drink', ['bake', 'bread making', 'sourdough', 'cakes', 'pastry']),
  activity('wine_tasting', 'Wine Tasting', 'food_drink', ['wine', 'wineries', 'vineyards', 'wine bars', 'winery tours']),
  activity('craft_beer', 'Craft Beer', 'food_drink', [
    'beer', 'breweries', 'brewery tours', 'beer tasting', 'beer festivals', 'homebrewing', 'home brewing',
  ]),
  activity('farmers_markets', 'Farmers Markets', 'food_drink', ['farmers market', 'food markets', 'markets']),

  // Arts & culture
  activity('museums', 'Museums', 'arts_culture', [
    'museum', 'art galleries', 'galleries', 'gallery', 'exhibitions', 'exhibits', 'art museums',
  ]),
  activity('theatre', 'Theatre', 'arts_culture', ['theater', 'plays', 'musicals', 'broadway', 'west end']),
  activity('movies', 'Movies & TV', 'arts_culture', [
    'movies', 'films', 'film', 'cinema', 'movie nights', 'going to the movies', 'watching movies', 'film club',
    'movie theater', 'tv', 'tv shows', 'watching tv', 'netflix', 'binge watching', 'anime',
  ]),
  activity('comedy', 'Comedy Shows', 'arts_culture', ['comedy', 'stand up comedy', 'standup', 'comedy clubs']),
  activity('improv', 'Improv', 'arts_culture', ['improv comedy', 'improv theatre', 'improvisation', 'acting', 'drama club']),
  activity('photography', 'Photography', 'arts_culture', [
    'photos', 'taking photos', 'street photography', 'film photography', 'photo walks', 'camera',
  ]),
  activity('painting', 'Painting', 'arts_culture', ['art', 'watercolor', 'watercolour', 'acrylics', 'oil painting', 'making art']),
  activity('drawing', 'Drawing', 'arts_culture', [
    'sketching', 'sketch', 'illustration', 'urban sketching', 'doodling', 'life drawing', 'figure drawing',
  ]),
  activity('crafts', 'Arts & Crafts', 'arts_culture', ['crafts', 'crafting', 'diy', 'scrapbooking', 'origami', 'candle making']),
  activity('knitting', 'Knitting & Crochet', 'arts_culture', ['knitting', 'crochet', 'crocheting', 'embroidery', 'cross stitch']),
  activity('sewing', 'Sewing', 'arts_culture', ['quilting', 'dressmaking']),
  activity('pottery', 'Pottery', 'arts_culture', ['ceramics', 'wheel throwing', 'clay', 'hand building']),
  activity('woodworking', 'Woodworking', 'arts_culture', ['carpentry', 'woodwork', 'wood carving', 'whittling', 'furniture making']),
  activity('writing', 'Writing', 'arts_culture', [
    'creative writing', 'poetry', 'writing group', 'novel writing', 'screenwriting', 'blogging',
  ]),
  activity('reading', 'Reading', 'arts_culture', ['read', 'books', 'reading books', 'novels', 'literature']),
  activity('dancing', 'Dancing', 'arts_culture', [
    'dance', 'salsa', 'salsa dancing', 'bachata', 'swing dancing', 'ballroom', 'ballroom dancing', 'tango',
    'latin dance', 'latin dancing', 'hip hop dance', 'ballet', 'zumba', 'line dancing', 'contemporary dance',
    'kizomba', 'lindy hop', 'social dancing',
  ]),

  // Music
  activity('live_music', 'Live Music', 'music', [
    'music', 'concerts', 'concert', 'gigs', 'gig', 'live bands', 'jazz clubs', 'open mic', 'open mic nights',
  ]),
  activity('music_festivals', 'Music Festivals', 'music', ['festivals', 'festival', 'music festival']),
  activity('classical_music', 'Classical Music', 'music', ['orchestra', 'symphony', 'opera', 'chamber music', 'classical concerts']),
  activity('jamming', 'Jam Sessions', 'music', ['jam', 'jamming', 'jam session', 'playing music', 'playing in a band', 'band']),
  activity('guitar', 'Guitar', 'music', ['playing guitar', 'acoustic guitar', 'electric guitar', 'bass guitar', 'bass', 'ukulele']),
  activity('piano', 'Piano', 'music', ['playing piano', 'keyboard', 'keys']),
  activity('singing', 'Singing', 'music', ['sing', 'choir', 'choirs', 'vocals', 'a cappella', 'acapella', 'barbershop']),
  activity('karaoke', 'Karaoke', 'music', ['karaoke night', 'singstar']),
  activity('drums', 'Drums', 'music', ['drumming', 'drum', 'percussion', 'drum circle']),
  activity('djing', 'DJing', 'music', ['dj', 'turntables', 'mixing']),
  activity('music_production', 'Music Production', 'music', ['producing music', 'making music', 'beat making', 'beatmaking', 'ableton']),
  activity('record_collecting', 'Record Collecting', 'music', ['vinyl', 'records', 'record stores', 'crate digging']),

  // Games
  activity('board_games', 'Board Games', 'games', [
    'board gaming', 'boardgame', 'tabletop games', 'game night', 'game nights', 'board game cafe', 'catan',
    'settlers of catan', 'ticket to ride', 'backgammon',
  ]),
  activity('card_games', 'Card Games', 'games', [
    'cards', 'poker', 'bridge', 'magic the gathering', 'mtg', 'trading card games', 'cribbage', 'euchre', 'rummy',
  ]),
  activity('chess', 'Chess', 'games', ['chess club', 'speed chess', 'blitz chess', 'checkers', 'draughts']),
  activity('video_games', 'Video Games', 'games', [
    'gaming', 'video gaming', 'gamer', 'pc gaming', 'console gaming', 'online gaming', 'esports', 'playstation',
    'xbox', 'nintendo', 'mario kart',
  ]),
  activity('tabletop_rpgs', 'Tabletop RPGs', 'games', [
    'dungeons and dragons', 'd&d', 'dnd', 'tabletop rpg', 'ttrpg', 'rpg', 'role playing games', 'roleplaying games',
    'pathfinder', 'warhammer',
  ]),
  activity('puzzles', 'Puzzles', 'games', ['jigsaw puzzles', 'jigsaws', 'crosswords', 'crossword', 'sudoku']),
  activity('escape_rooms', 'Escape Rooms', 'games', ['escape room']),
  activity('trivia', 'Trivia & Pub Quizzes', 'games', ['trivia night', 'pub quiz', 'pub quizzes', 'quiz night', 'quizzes', 'bar trivia']),
  activity('billiards', 'Billiards & Pool', 'games', ['pool', 'playing pool', 'snooker', 'pool table', 'eight ball', '8 ball']),
  activity('darts', 'Darts', 'games', ['dartboard']),
  activity('mahjong', 'Mahjong', 'games', ['mah jong', 'mahjongg']),
  activity('lawn_games', 'Lawn Games', 'games', [
    'cornhole', 'bocce', 'petanque', 'boules', 'croquet', 'kubb', 'horseshoes', 'spikeball', 'roundnet',
  ]),

  // Learning
  activity('language_exchange', 'Language Exchange', 'learning', [
    'language learning', 'learning languages', 'languages', 'language', 'language practice', 'conversation exchange',
    'tandem', 'speaking practice', 'esl', 'english practice',
    // A bare language name in a hobby list means practising it.
    'spanish', 'french', 'german', 'italian', 'portuguese', 'japanese', 'korean', 'mandarin', 'chinese', 'arabic',
  ]),
  activity('coding', 'Coding', 'learning', ['programming', 'hackathons', 'hackathon', 'side projects', 'software', 'open source']),
  activity('study_groups', 'Study Groups', 'learning', ['studying', 'study', 'study group', 'coworking', 'co working']),
  activity('lectures', 'Lectures & Talks', 'learning', ['lectures', 'talks', 'ted talks', 'public lectures', 'seminars']),
  activity('history', 'History', 'learning', ['local history', 'historical sites', 'history tours', 'historic sites']),
  activity('public_speaking', 'Public Speaking', 'learning', ['toastmasters', 'speeches']),
  activity('philosophy', 'Philosophy', 'learning', ['philosophy discussions', 'debate', 'debating', 'socratic cafe']),
  activity('startups', 'Startups', 'learning', ['startup', 'entrepreneurship', 'founders', 'small business']),

  // Wellness
  activity('meditation', 'Meditation', 'wellness', [
    'meditate', 'meditating', 'mindfulness', 'breathwork', 'sound baths', 'sound bath', 'guided meditation',
  ]),
  activity('sauna', 'Sauna & Spa', 'wellness', [
    'sauna', 'saunas', 'spa', 'spa days', 'cold plunge', 'ice baths', 'ice bath', 'steam room', 'bathhouse',
    'hot springs',
  ]),
  activity('tai_chi', 'Tai Chi', 'wellness', ['taichi', 'qigong', 'qi gong']),
  activity('journaling', 'Journaling', 'wellness', ['journal', 'bullet journaling']),

  // Family & pets
  activity('dog_walking', 'Dog Walking', 'family_pets', [
    'walking the dog', 'walking my dog', 'walking dogs', 'dog walks', 'dog park', 'dog parks', 'dogs',
    'dog training', 'puppy playdates',
  ]),
  activity('playdates', 'Kids Playdates', 'family_pets', [
    'playdates', 'playdate', 'play dates', 'kids activities', 'family outings', 'parenting', 'toddler groups',
    'parent groups',
  ]),
  activity('zoos', 'Zoos & Aquariums', 'family_pets', ['zoo', 'zoos', 'aquarium', 'aquariums', 'wildlife parks', 'safari park']),
  activity('theme_parks', 'Theme Parks', 'family_pets', [
    'amusement parks', 'roller coasters', 'disneyland', 'disney world', 'disney', 'water parks', 'funfair',
  ]),
  activity('mini_golf', 'Mini Golf', 'family_pets', ['minigolf', 'crazy golf', 'putt putt', 'miniature golf']),

  // Volunteering
  activity('volunteering', 'Volunteering', 'volunteering', [
    'volunteer', 'volunteer work', 'charity work', 'community service', 'giving back',
  ]),
  activity('litter_picking', 'Litter Picking', 'volunteering', [
    'beach cleanups', 'beach clean ups', 'park cleanups', 'cleanups', 'trash pickup', 'plogging',
  ]),
  activity('animal_shelter', 'Animal Shelter Volunteering', 'volunteering', [
    'animal shelter', 'animal rescue', 'shelter volunteering', 'fostering animals', 'pet fostering', 'dog shelter',
  ]),
  activity('food_bank', 'Food Bank Volunteering', 'volunteering', ['food banks', 'food bank', 'soup kitchen', 'soup kitchens', 'food drive']),
  activity('mentoring', 'Mentoring', 'volunteering', ['tutoring', 'mentorship', 'mentor', 'tutor', 'youth mentoring']),
  activity('conservation', 'Conservation Volunteering', 'volunteering', [
    'conservation', 'tree planting', 'habitat restoration', 'trail maintenance', 'citizen science',
  ]),

  // Travel
  activity('travel', 'Travel', 'travel', ['traveling', 'travelling', 'trips', 'vacations', 'holidays', 'exploring new places']),
  activity('road_trips', 'Road Trips', 'travel', ['road trip', 'roadtrips', 'road tripping', 'driving', 'scenic drives']),
  activity('weekend_getaways', 'Weekend Getaways', 'travel', ['getaways', 'weekend trips', 'city breaks', 'day trips']),
  activity('city_exploring', 'City Exploring', 'travel', [
    'sightseeing', 'exploring the city', 'exploring', 'walking tours', 'city walks', 'urban exploring', 'urbex',
  ]),
  activity('van_life', 'Van Life', 'travel', ['vanlife', 'campervan', 'camper van', 'rv trips', 'overlanding']),
]);

/**
 * Words that name several activities at once. They never resolve to one id; they
 * come back unmatched, with suggestions, so the agent can ask which was meant.
 * (Without this, stemming would quietly map "games" onto "gaming".)
 */
export const AMBIGUOUS_TERMS: readonly string[] = Object.freeze([
  'game', 'games', 'sport', 'sports', 'skate', 'skating', 'riding', 'ball', 'ball games',
  'water sports', 'winter sports', 'team sports', 'racket sports', 'racquet sports', 'outdoor activities',
]);

const BY_ID: ReadonlyMap<string, Activity> = new Map(ACTIVITIES.map((a) => [a.id, a]));

export const ACTIVITY_IDS: readonly string[] = Object.freeze(ACTIVITIES.map((a) => a.id));

export function getActivity(id: string): Activity | undefined {
  return BY_ID.get(id);
}

/** Type guard for ids arriving from clients (buddy requests, stored rows). */
export function isActivityId(id: unknown): id is string {
  return typeof id === 'string' && BY_ID.has(id);
}
