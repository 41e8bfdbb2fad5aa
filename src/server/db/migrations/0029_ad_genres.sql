-- Ads take the listings' genres (decision 0057): one list of genres in the product. The ad
-- genres the listings' list lacks become the nearest genre it has (LEGACY_AD_GENRES in
-- src/shared/schemas/ads/constants.ts says the same, for old links); the shared keys stay.
update book_advertisements set genre = case genre
    when 'thriller' then 'mystery'
    when 'science' then 'nonFiction'
    when 'technology' then 'nonFiction'
    when 'health' then 'selfHelp'
    when 'travel' then 'nonFiction'
    when 'cooking' then 'nonFiction'
    when 'art' then 'nonFiction'
    when 'music' then 'nonFiction'
    when 'educational' then 'academic'
    when 'reference' then 'academic'
    when 'religion' then 'nonFiction'
    when 'philosophy' then 'nonFiction'
  end
where genre in ('thriller', 'science', 'technology', 'health', 'travel', 'cooking', 'art',
  'music', 'educational', 'reference', 'religion', 'philosophy');
